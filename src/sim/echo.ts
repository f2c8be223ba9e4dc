/** A value echoed back in a message: printable ASCII only (no escape sequence reaches the terminal), and short. */
export function clip(text: string): string {
  const safe = text.replace(/[^\x20-\x7e]/g, '?');
  return safe.length > 60 ? `${safe.slice(0, 60)}…` : safe;
}
