/**
 * A spec in a link: `spec=<version>.<base64url of the spec's UTF-8, deflated (zlib: its checksum finds a damaged link)>`, after the view's own fields.
 * Deflated because a spec is mostly SQL and whitespace (the lab's race, 2,045 characters, takes 1,106 in a
 * link; as base64 alone 2,727, percent-encoded 3,053). The browser's CompressionStream is the compressor:
 * no dependency, but asynchronous, so the page encodes a spec when the learner edits it (spec-slice.ts)
 * and decodes a link's spec before it opens the view (session-slice.ts).
 */
import { fromBase64Url, toBase64Url } from '../scenarios/link';
import { MAX_YOUR_SQL_LINK_CHARS } from './your-sql-link';
import { PAGE_MAX_SPEC_CHARS } from '../webworker/spec-limits';

const SPEC_LINK_KEY = 'spec';
const SPEC_LINK_VERSION = 1;

/** The spec's share of a link, the same as Your SQL's statements (MAX_LINK_CHARS leaves room for both). */
export const MAX_SPEC_LINK_CHARS = MAX_YOUR_SQL_LINK_CHARS;

/** What a link carries for a spec: its `spec=` value, or why it cannot carry it (one line, with what to do). */
export type SpecLink = { kind: 'fits'; value: string } | { kind: 'too-long'; message: string };

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array | null> {
  const writer = stream.writable.getWriter();
  // A damaged input rejects the writer as well as the reader: the reader's rejection is the one reported.
  writer.write(new Uint8Array(bytes)).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export async function encodeSpecLink(text: string): Promise<SpecLink> {
  const deflated = await through(new TextEncoder().encode(text), new CompressionStream('deflate'), Number.POSITIVE_INFINITY);
  const value = `${SPEC_LINK_VERSION}.${toBase64Url(deflated ?? new Uint8Array())}`;
  if (value.length <= MAX_SPEC_LINK_CHARS) return { kind: 'fits', value };
  return {
    kind: 'too-long',
    message: `The link leaves your spec out: compressed it takes ${value.length.toLocaleString('en')} characters, more than the ${MAX_SPEC_LINK_CHARS.toLocaleString('en')} a link can carry; share the file instead and run it with npm run sim -- spec FILE.spec.`,
  };
}

export type DecodedSpec = { text: string; problem: null } | { text: null; problem: string };

/** The spec in a `spec=` value, or why there is none, as one sentence for the notice. */
export async function decodeSpecLink(value: string): Promise<DecodedSpec> {
  const fail = (why: string): DecodedSpec => ({
    text: null,
    problem: `The spec in the link could not be opened: ${why}. The rest of the link opened as written, and your own spec draft is untouched.`,
  });
  if (value.length > MAX_SPEC_LINK_CHARS) return fail(`it is ${value.length.toLocaleString('en')} characters long, more than a link carries`);
  const dot = value.indexOf('.');
  const version = dot < 0 ? '' : value.slice(0, dot);
  if (!/^\d{1,4}$/.test(version)) return fail(`it does not start with a version number (such as "${SPEC_LINK_VERSION}.")`);
  if (Number(version) !== SPEC_LINK_VERSION) return fail(`it was written in form ${version}; this lab reads form ${SPEC_LINK_VERSION}`);
  const bytes = fromBase64Url(value.slice(dot + 1));
  if (bytes === null) return fail('it is not in the form the lab writes (base64url after the version)');
  let inflated: Uint8Array | null;
  try {
    inflated = await through(bytes, new DecompressionStream('deflate'), PAGE_MAX_SPEC_CHARS * 4);
  } catch {
    return fail('its compressed text is damaged (part of the link was lost or changed)');
  }
  if (inflated === null) return fail(`it inflates to more than ${PAGE_MAX_SPEC_CHARS.toLocaleString('en')} characters, far more than a spec`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return fail('it is not text (not valid UTF-8)');
  }
  if (text.length > PAGE_MAX_SPEC_CHARS) return fail(`it is more than ${PAGE_MAX_SPEC_CHARS.toLocaleString('en')} characters, far more than a spec`);
  return { text, problem: null };
}

/** The order of the spec's steps shown when the link was made: `specorder=` its step names, space-separated. */
const SPEC_ORDER_KEY = 'specorder';

/** The raw value of a fragment's `key=` (with or without "#"), or null when it has none. */
function rawPart(fragment: string, key: string): string | null {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  let found: string | null = null;
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (eq >= 0 && pair.slice(0, eq) === key) found = pair.slice(eq + 1);
  }
  return found;
}

/** The raw `spec=` value of a fragment, or null when it carries none. */
export function specLinkValue(fragment: string): string | null {
  return rawPart(fragment, SPEC_LINK_KEY);
}

/** The order a link shows, or null (none, or not properly encoded: the run then opens its shortest broken order). */
export function specOrderOf(fragment: string): string | null {
  const raw = rawPart(fragment, SPEC_ORDER_KEY);
  if (raw === null) return null;
  try {
    const order = decodeURIComponent(raw).trim();
    return order === '' ? null : order;
  } catch {
    return null;
  }
}

/** Where the lanes' cursor stands in the order shown: `specstep=N` (0 its start, N after its Nth step; spec-lanes.ts). */
const SPEC_STEP_KEY = 'specstep';

export type LinkedSpecStep = { step: number; problem: string | null };

/** The cursor a link carries (0 when none), or why its value was not one: one line for the link's notice. */
export function specStepOf(fragment: string): LinkedSpecStep {
  const raw = rawPart(fragment, SPEC_STEP_KEY);
  if (raw === null) return { step: 0, problem: null };
  if (/^\d{1,4}$/.test(raw)) return { step: Number(raw), problem: null };
  const shown = raw.length > 24 ? `${raw.slice(0, 24)}…` : raw;
  return {
    step: 0,
    problem: `specstep=${shown} is not a step of the spec's order (0 for its start, 1 after its first step, …): the order opens at its start.`,
  };
}

/** A view's fragment with the spec's part added last (the longest part, after what a reader looks for), the order shown and the lanes' step. */
export function withSpecLink(fragment: string, link: SpecLink | null, order: string | null = null, step = 0): string {
  if (link?.kind !== 'fits') return fragment;
  const shown = order === null ? '' : `&${SPEC_ORDER_KEY}=${encodeURIComponent(order)}`;
  const at = step > 0 ? `&${SPEC_STEP_KEY}=${step}` : '';
  return `${fragment}${shown}${at}&${SPEC_LINK_KEY}=${link.value}`;
}
