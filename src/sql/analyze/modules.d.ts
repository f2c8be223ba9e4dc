// The Emscripten module factory inside libpg-query (CommonJS; its default export is the factory).
declare module 'libpg-query/wasm/libpg-query.js' {
  const factory: (options?: { locateFile?: (file: string) => string }) => Promise<unknown>;
  export default factory;
}
