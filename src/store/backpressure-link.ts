/**
 * The backpressure view as a URL fragment: `#backpressure&preset=starvation&workers=4&…&at=120`.
 * Every knob is written out, so a link says exactly what it shows; decoding trusts none of it.
 */
import { clampKnob, DEFAULT_PRESET_ID, findPreset, KNOBS, type KnobId } from '../sim/backpressure/presets';
import type { BackpressureConfig } from '../sim/backpressure/types';

const BACKPRESSURE_PREFIX = 'backpressure';

export interface BackpressureLink {
  presetId: string;
  config: BackpressureConfig;
  /** The second shown; null: the end. */
  at: number | null;
}

/** Is this fragment (with or without "#") a link to the backpressure view? */
export function isBackpressureFragment(fragment: string): boolean {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  return text === BACKPRESSURE_PREFIX || text.startsWith(`${BACKPRESSURE_PREFIX}&`);
}

export function encodeBackpressureLink(link: BackpressureLink): string {
  const parts = [BACKPRESSURE_PREFIX, `preset=${encodeURIComponent(link.presetId)}`];
  for (const knob of KNOBS) {
    const value = link.config[knob.id];
    parts.push(`${knob.id}=${value === null ? 'none' : value}`);
  }
  parts.push(`at=${link.at === null ? 'end' : link.at}`);
  return parts.join('&');
}

/** Reads a link; anything missing comes from the preset, anything out of range is brought into it. */
export function decodeBackpressureLink(fragment: string): BackpressureLink {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const fields = new Map<string, string>();
  for (const pair of text.slice(0, 4000).split('&').slice(1)) {
    const eq = pair.indexOf('=');
    if (eq > 0) fields.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const preset = findPreset(fields.get('preset') ?? '') ?? findPreset(DEFAULT_PRESET_ID)!;
  const config: BackpressureConfig = { ...preset.config, tenants: preset.config.tenants.map((t) => ({ ...t })) };
  for (const knob of KNOBS) {
    const raw = fields.get(knob.id);
    if (raw === undefined) continue;
    const value = raw === 'none' ? null : Number(raw);
    if (value !== null && !Number.isFinite(value)) continue;
    (config as unknown as Record<KnobId, number | null>)[knob.id] = clampKnob(knob, value);
  }
  const atText = fields.get('at');
  const atNumber = Number(atText);
  const at = atText === undefined || atText === 'end' || !Number.isInteger(atNumber) || atNumber < 0 ? null : Math.min(atNumber, 1_000_000);
  return { presetId: preset.id, config, at };
}
