/**
 * The timeline as a file: SVG text that opens on its own (every style resolved from the page's theme
 * and written inline, no classes, no custom properties), and a PNG drawn from that SVG.
 */

/** Presentation properties the timeline's stylesheet sets. */
const INHERITED = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linejoin',
  'stroke-linecap',
  'paint-order',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'text-anchor',
  'visibility',
] as const;
/** Properties that do not inherit, with their initial values (written only when they differ). */
const NOT_INHERITED: Record<string, string> = { opacity: '1', display: 'inline', 'dominant-baseline': 'auto' };
/** Initial values of the inherited ones, for the root. */
const INITIAL: Record<string, string> = {
  fill: 'rgb(0, 0, 0)',
  'fill-opacity': '1',
  'fill-rule': 'nonzero',
  stroke: 'none',
  'stroke-width': '1px',
  'stroke-opacity': '1',
  'stroke-dasharray': 'none',
  'stroke-linejoin': 'miter',
  'stroke-linecap': 'butt',
  'paint-order': 'normal',
  'font-style': 'normal',
  'font-weight': '400',
  'font-variant-numeric': 'normal',
  'text-anchor': 'start',
  visibility: 'visible',
};

/**
 * The timeline's SVG as a standalone document. Styles are read with getComputedStyle, so the file
 * looks like the page did (light or dark); the hover highlight and interactive attributes are left out.
 */
export function timelineSvgText(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const copies = [clone, ...Array.from(clone.querySelectorAll('*'))];
  const resolved = new Map<Element, Record<string, string>>();
  const drop: Element[] = [];
  originals.forEach((original, i) => {
    const copy = copies[i]!;
    const tag = original.tagName.toLowerCase();
    if (tag === 'style' || original.classList.contains('tl-hover')) {
      drop.push(copy);
      return;
    }
    const computed = getComputedStyle(original);
    const parent = original === svg ? null : original.parentElement;
    const inherited = parent ? resolved.get(parent) : undefined;
    const mine: Record<string, string> = {};
    const declarations: string[] = [];
    for (const property of INHERITED) {
      const value = computed.getPropertyValue(property).trim();
      mine[property] = value;
      const base = inherited ? inherited[property] : INITIAL[property];
      if (value && value !== base) declarations.push(`${property}:${value}`);
    }
    for (const [property, initial] of Object.entries(NOT_INHERITED)) {
      const value = computed.getPropertyValue(property).trim();
      if (value && value !== initial && !(property === 'display' && tag === 'svg')) declarations.push(`${property}:${value}`);
    }
    resolved.set(original, mine);
    copy.removeAttribute('class');
    if (declarations.length > 0) copy.setAttribute('style', declarations.join(';'));
    else copy.removeAttribute('style');
  });
  for (const element of drop) element.remove();
  for (const attribute of ['tabindex', 'data-selected', 'role']) clone.removeAttribute(attribute);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const box = svg.viewBox.baseVal;
  clone.setAttribute('width', String(box?.width || svg.clientWidth));
  clone.setAttribute('height', String(box?.height || svg.clientHeight));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
}

/** The timeline drawn to a canvas at `scale` × its size (2 by default, for sharp text), as a PNG. */
export async function timelinePng(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const text = timelineSvgText(svg);
  const box = svg.viewBox.baseVal;
  const width = box?.width || svg.clientWidth;
  const height = box?.height || svg.clientHeight;
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('this browser cannot draw to a canvas');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas could not be encoded as PNG'))), 'image/png');
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}
