/**
 * Every step from every state of a two-worker scenario, on PGlite and on the real server, under the given
 * strategies with fencing on and off (see src/engine/cover.ts for why this checks every interleaving).
 * The scenarios are split over a few test files so that vitest runs them side by side. This replaces
 * enumerating every schedule for the scenarios with clock and fault tokens: heartbeat's tree alone has
 * over 50,000 schedules under the naive claim, its graph 2,544 states.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findScenario } from '../../src/scenarios';
import type { Settings, Strategy } from '../../src/sim/types';
import { LAB_STRATEGY_IDS } from '../../src/strategies';
import { compareStateGraph, type Databases, describeDivergences, fencingInNpmTest, openDatabases, summary } from './differential';

/** A busy machine can make the largest graph take minutes. */
const CASE_TIMEOUT_MS = 600_000;
/**
 * heartbeat and stuck-heartbeat have the largest graphs (5,000–6,000 states per strategy over both
 * fencings, 21,000 schedules in the walk's own cover between them, which the server plays as fewer, longer
 * paths (StateGraph.pathCover): about two thirds of all the work), and
 * the two cancel scenarios are the next, so these run in the full ground truth only (GROUND_TRUTH=full,
 * npm run test:ground-truth:full), to keep npm test within its time on a slow machine; npm test plays
 * seeded samples of them (seeded.test.ts).
 */
export const FULL_RUN_ONLY: ReadonlySet<string> = new Set(['heartbeat', 'stuck-heartbeat', 'cancel-durable', 'cancel-kill']);
/**
 * Where npm test runs each strategy under one fencing setting (fencingInNpmTest): a crashed worker never
 * writes again, so fencing changes little there. The race, the held claim and the paused worker (the
 * scenario fencing is for) run both settings everywhere.
 */
const ONE_FENCING_IN_NPM_TEST: ReadonlySet<string> = new Set(['crash-orphan']);
const FULL = process.env.GROUND_TRUTH === 'full';

/**
 * The databases every graph of a test file plays on: one PGlite and the server's labs, opened before the
 * file's first graph and closed after its last. Each case begins with a reset on all of them, so a
 * scenario's graphs need no databases of their own: opening and closing them cost about a second of CPU
 * (PGlite's boot, two CREATE DATABASE and six connections), once per scenario and group before, 13 times
 * in graph-queues-incidents alone. Named after the first graph (`name`); each vitest worker process runs
 * one file (pool forks, isolated), so this is that file's.
 */
let fileDatabases: { name: string; opened: Promise<Databases> | null } | null = null;

/** The file's databases (see fileDatabases), opened on first use; call outside any describe, at collection. */
export function databasesOfThisFile(name: string): () => Promise<Databases> {
  if (!fileDatabases) {
    const mine = { name, opened: null as Promise<Databases> | null };
    fileDatabases = mine;
    afterAll(async () => {
      await (await mine.opened?.catch(() => null))?.close();
    });
  }
  const file = fileDatabases;
  return () => {
    file.opened ??= openDatabases(file.name);
    return file.opened;
  };
}

export interface EveryStateOptions {
  /**
   * Names the set of strategies when it is not the lab's own (the production queues: graph-queues.test.ts),
   * so that its database and its test names differ from the lab's for the same scenario.
   */
  group?: string;
  /** npm test plays only this fencing setting (the full ground truth plays both). */
  npmTestFencing?: boolean;
}

export function everyState(id: string, strategies: readonly Strategy[] = LAB_STRATEGY_IDS, { group, npmTestFencing }: EveryStateOptions = {}): void {
  const scenario = findScenario(id);
  const cases = strategies.flatMap((strategy) => [false, true].map((fencing) => ({ strategy, fencing })));
  const oneFencing = ({ strategy, fencing }: Settings) => fencing === fencingInNpmTest(strategy);
  const inNpmTest = FULL_RUN_ONLY.has(id)
    ? []
    : npmTestFencing !== undefined
      ? cases.filter((c) => c.fencing === npmTestFencing)
      : ONE_FENCING_IN_NPM_TEST.has(id)
        ? cases.filter(oneFencing)
        : cases;
  const inThisRun = FULL ? cases : inNpmTest;
  const leftOut = cases.filter((c) => !inThisRun.includes(c));

  const of = group === undefined ? id : `${id} under the ${group}`;
  const databases =
    inThisRun.length === 0 ? null : databasesOfThisFile(`graph_${group === undefined ? '' : `${group.replace(/\W+/g, '_')}_`}${id.replace(/-/g, '_')}`);
  describe(`every step from every state of ${of} agrees on PGlite and PostgreSQL`, () => {
    for (const { strategy, fencing } of leftOut) it.skip(`${strategy}, fencing ${fencing}: in npm run test:ground-truth:full`, () => {});
    // Nothing to play: no databases to start.
    if (!databases) return;
    let dbs: Databases;

    beforeAll(async () => {
      dbs = await databases();
    });

    it.for(inThisRun)('$strategy, fencing $fencing', { timeout: CASE_TIMEOUT_MS }, async (settings, { signal }) => {
      expect(scenario?.workers).toHaveLength(2);
      const started = performance.now();
      const result = await compareStateGraph(dbs, scenario!, settings, signal);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.info(
        `${summary(`${id} ${settings.strategy} fencing ${settings.fencing ? 'on' : 'off'}`, result)}; ${result.states} states, ${result.edges} steps between them, ${seconds} s`,
      );
      expect(result.cut, `more than the state limit: the search was cut after ${result.states} states`).toBe(false);
      expect(result.edges).toBeGreaterThanOrEqual(result.states - 1);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    });
  });
}
