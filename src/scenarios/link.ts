/**
 * An authored scenario in a link: the `sc=` part of a permalink, `<version>.<base64url of its spec as JSON>`.
 * Versioned (a newer lab's link says so instead of being misread), bounded (a link far longer than any
 * scenario needs is refused before it is decoded), and decoded without trusting any of it: every field is
 * checked by scenarioFromSpec, which holds it to defineScenario's rules.
 */
import { type ScenarioSpec, SPEC_VERSION, scenarioFromSpec, specShapeProblems } from './authored';
import type { Scenario } from '../sim/types';

/** The link key of an authored scenario. */
export const SCENARIO_KEY = 'sc';

/**
 * Far more than any authored scenario needs (the longest spec, with its schedule of 2000 "pause:A" steps,
 * is about 22 000 characters of base64); a link's whole length is bounded by MAX_LINK_CHARS as well.
 */
export const MAX_SCENARIO_CHARS = 23_000;

export function encodeSpec(spec: ScenarioSpec): string {
  const { version, ...rest } = spec;
  return `${version}.${toBase64Url(new TextEncoder().encode(JSON.stringify(rest)))}`;
}

export type DecodedScenario = { scenario: Scenario; problem: null } | { scenario: null; problem: string };

/** The scenario in an `sc=` value, or why there is none, as a sentence for a notice. */
export function decodeScenarioParam(text: string): DecodedScenario {
  const fail = (why: string): DecodedScenario => ({ scenario: null, problem: `The scenario in the link could not be opened: ${why}.` });
  if (text.length > MAX_SCENARIO_CHARS) return fail(`it is ${text.length} characters long, far more than any scenario needs`);
  const dot = text.indexOf('.');
  const version = dot < 0 ? '' : text.slice(0, dot);
  if (!/^\d{1,4}$/.test(version)) return fail(`it does not start with a version number (such as "${SPEC_VERSION}.")`);
  if (Number(version) !== SPEC_VERSION) {
    return fail(
      Number(version) > SPEC_VERSION
        ? `it was written by a newer Lease Lab (version ${version}); this one reads version ${SPEC_VERSION}`
        : `version ${version} is not one this lab reads (it reads version ${SPEC_VERSION})`,
    );
  }
  const bytes = fromBase64Url(text.slice(dot + 1));
  if (bytes === null) return fail('it is not in the form the lab writes (base64url after the version)');
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail('its text is not valid UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return fail('it is not valid JSON');
  }
  return scenarioFromValue(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { version: SPEC_VERSION, ...parsed } : parsed, fail);
}

/** A spec read from outside (a link, a file): the scenario, or the first problem as `fail` phrases it. */
export function scenarioFromValue(value: unknown, fail: (why: string) => DecodedScenario): DecodedScenario {
  const shape = specShapeProblems(value);
  if (shape.length > 0) return fail(shape[0]!.message);
  const built = scenarioFromSpec(value as ScenarioSpec);
  if (built.scenario === null) return fail(built.problems[0]!.message);
  return { scenario: built.scenario, problem: null };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding, by hand: the same in the page, a Web Worker and Node. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index]! << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - index) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(chunk >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** null when the text is not base64url (a character outside its alphabet, or a length no encoding has). */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = ((value << 6) | digit) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out;
}
