/**
 * Ready-made cases and the knobs the learner may turn, with their ranges. The ranges also bound what a
 * link may ask for, so a hand-edited link can never ask for a million workers.
 */
import type { BackpressureConfig, TenantSpec } from './types';

export type KnobId =
  | 'seed'
  | 'workers'
  | 'arrivalsPerSecond'
  | 'streamRuns'
  | 'meanCalls'
  | 'callSeconds'
  | 'maxActiveRuns'
  | 'maxActivePerTenant'
  | 'maxCallsInFlight'
  | 'maxCostPerRunCents';

export interface KnobSpec {
  id: KnobId;
  label: string;
  min: number;
  max: number;
  step: number;
  /** May be switched off (null: no limit). */
  limit: boolean;
  unit?: string;
}

export const KNOBS: readonly KnobSpec[] = [
  { id: 'workers', label: 'Workers', min: 1, max: 32, step: 1, limit: false },
  { id: 'arrivalsPerSecond', label: 'Arrival rate', min: 0, max: 10, step: 0.1, limit: false, unit: 'runs/s' },
  { id: 'streamRuns', label: 'Runs arriving', min: 0, max: 2000, step: 1, limit: false },
  { id: 'meanCalls', label: 'Run length', min: 1, max: 20, step: 1, limit: false, unit: 'model calls (mean)' },
  { id: 'callSeconds', label: 'Model call', min: 1, max: 10, step: 1, limit: false, unit: 's' },
  { id: 'maxActiveRuns', label: 'Max active runs', min: 1, max: 64, step: 1, limit: true },
  { id: 'maxActivePerTenant', label: 'Max active runs per tenant', min: 1, max: 32, step: 1, limit: true },
  { id: 'maxCallsInFlight', label: 'Max concurrent model calls', min: 1, max: 64, step: 1, limit: true },
  { id: 'maxCostPerRunCents', label: 'Max cost per run', min: 1, max: 1000, step: 1, limit: true, unit: '¢' },
  { id: 'seed', label: 'Seed', min: 0, max: 2_147_483_647, step: 1, limit: false },
];

export interface BackpressurePreset {
  id: string;
  title: string;
  /** What the learner will see, in two short lines. */
  summary: string;
  config: BackpressureConfig;
}

const tenant = (id: string, weight: number, burst = 0, burstAtSecond = 0): TenantSpec => ({ id, weight, burst, burstAtSecond });

export const BACKPRESSURE_PRESETS: readonly BackpressurePreset[] = [
  {
    id: 'starvation',
    title: 'One tenant floods the queue',
    summary:
      'Tenant A submits 100 runs at once; a moment later tenant B submits one. Each tenant may have 2 runs active. FIFO keeps B behind all of A (and leaves workers idle); the fair claim skips A while A is at its limit.',
    config: {
      seed: 7,
      workers: 4,
      tenants: [tenant('A', 0, 100, 0), tenant('B', 1)],
      arrivalsPerSecond: 0.5,
      streamRuns: 1,
      meanCalls: 3,
      callSeconds: 2,
      maxActiveRuns: null,
      maxActivePerTenant: 2,
      maxCallsInFlight: null,
      maxCostPerRunCents: null,
    },
  },
  {
    id: 'overload',
    title: 'Steady overload, three tenants',
    summary: "Runs arrive faster than 8 workers can finish them. The caps on model calls and on each run's cost keep spending bounded while the queue grows.",
    config: {
      seed: 11,
      workers: 8,
      tenants: [tenant('A', 6), tenant('B', 3), tenant('C', 1)],
      arrivalsPerSecond: 1.5,
      streamRuns: 300,
      meanCalls: 4,
      callSeconds: 2,
      maxActiveRuns: 12,
      maxActivePerTenant: 4,
      maxCallsInFlight: 6,
      maxCostPerRunCents: 40,
    },
  },
];

export const DEFAULT_PRESET_ID = 'starvation';

export function findPreset(id: string): BackpressurePreset | undefined {
  return BACKPRESSURE_PRESETS.find((preset) => preset.id === id);
}

/** A knob's value brought into its range (and onto its step); null stays null only for a limit. */
export function clampKnob(spec: KnobSpec, value: number | null): number | null {
  if (value === null) return spec.limit ? null : spec.min;
  if (!Number.isFinite(value)) return spec.min;
  const stepped = Math.round(value / spec.step) * spec.step;
  const rounded = Number(stepped.toFixed(spec.step < 1 ? 1 : 0));
  return Math.min(spec.max, Math.max(spec.min, rounded));
}

/** Runs in total: every burst plus the steady stream. */
export function totalRuns(config: BackpressureConfig): number {
  return (
    config.tenants.reduce((sum, t) => sum + t.burst, 0) + (config.tenants.some((t) => t.weight > 0) && config.arrivalsPerSecond > 0 ? config.streamRuns : 0)
  );
}
