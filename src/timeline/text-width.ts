/** The timeline's text sizes, and how wide a line of text will be (there is no DOM to measure it with). */

/** Font sizes in px: a mark's label and sublabel, the words on a lease bar or span, the legend. */
export const FONT = { label: 11, sublabel: 9.5, bar: 10, legend: 11 } as const;

const widthCache = new Map<string, number>();

/** Width of one character in em, for a sans-serif font; a little generous so estimates err towards hiding. */
function charEm(code: number): number {
  if (code >= 48 && code <= 57) return 0.58; // digits
  if (code === 109 || code === 119 || code === 77 || code === 87) return 0.86; // m w M W
  if (code >= 65 && code <= 90) return 0.68; // capitals
  // i l j . , : ; ' ! | · space
  if (
    code === 105 ||
    code === 108 ||
    code === 106 ||
    code === 46 ||
    code === 44 ||
    code === 58 ||
    code === 59 ||
    code === 39 ||
    code === 33 ||
    code === 124 ||
    code === 183 ||
    code === 32
  )
    return 0.3;
  return 0.56;
}

/** Estimated width of a line of text, in px. */
export function textWidth(text: string, fontPx: number): number {
  const key = `${fontPx}|${text}`;
  const cached = widthCache.get(key);
  if (cached !== undefined) return cached;
  let em = 0;
  for (let i = 0; i < text.length; i++) em += charEm(text.charCodeAt(i));
  const width = em * fontPx;
  if (widthCache.size > 5000) widthCache.clear();
  widthCache.set(key, width);
  return width;
}

/** The first of `words` (longest first) that fits in `room` px at the given size, or null. */
export function wordsThatFit(words: readonly string[], room: number, fontPx: number): string | null {
  return words.find((w) => textWidth(w, fontPx) <= room) ?? null;
}
