/**
 * What the interleaving explorer (engine/explore.ts) reports: plain data that crosses its Web Worker and
 * that the explorer's store and panel read, so it lives here, below both, rather than in the engine.
 */
import type { Settings } from './types';

export interface OutcomeGroup {
  /** Stable id of the outcome: the anomaly kinds and runs, sorted. */
  key: string;
  /** Plain words: "duplicate execution of run 123". */
  label: string;
  /** How many schedules end this way. */
  count: number;
  /** A shortest schedule that ends this way (first in exploration order among the shortest). */
  witness: string[];
}

export interface Exploration {
  scenario: string;
  settings: Settings;
  /** 'all': every schedule; 'sample': seeded random schedules only. */
  coverage: 'all' | 'sample';
  method: 'brute-force' | 'fast' | 'sample';
  total: number;
  groups: OutcomeGroup[];
  /** Distinct states the fast path visited (brute force and samples: schedules played). */
  statesVisited: number;
  /** Seed of the sample, when coverage is 'sample'. */
  seed: number | null;
  /** Fast path: steps played to explore (replays included), and steps it knew the result of without playing. */
  stepsPlayed?: number;
  stepsInferred?: number;
  /** Why the lab sampled instead of exploring every schedule. */
  sampledBecause?: string;
}

export interface ExploreProgress {
  /** Schedules counted so far. */
  counted: number;
  statesVisited: number;
  /** How far along, 0 to 1: the share of the tree of choices already covered (each choice weighs equally). */
  fraction: number;
}
