declare module '*.sql?raw' {
  const text: string;
  export default text;
}

/** A spec in PostgreSQL's isolation-tester format (docs/examples/*.spec), as text. */
declare module '*.spec?raw' {
  const text: string;
  export default text;
}
