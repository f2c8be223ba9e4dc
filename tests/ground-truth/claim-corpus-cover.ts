/**
 * The truth corpus played through the state-graph cover (src/engine/cover.ts): each variant the lab
 * accepts, as the statement its role runs, takes every step from every state of a two-worker scenario on
 * PGlite, and each covering schedule is played on a real PostgreSQL, one connection per worker, every step
 * compared (the differential harness): 0 divergences. A claim plays the race (two workers, one pending
 * run: who gets it, who waits) and the held claim of lock-wait; a completion plays paused-worker, where a
 * worker wakes past its lease and completes. A variant the lab refuses (by the analyzer, or while playing:
 * a claim that took several runs, a wait it cannot replay) must say why in one line.
 *
 * Three workers and a crash cost far more (three-workers: 500–2,200 covering schedules, 0.5–2 min a claim on
 * an idle machine, 4–8 min under load; crash-orphan: 130–190, 10–45 s), so a crash is played with one claim
 * of each shape the analyzer tells apart (shapeKey), three workers with one of each way to wait (waitKey).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardCustomClaim } from '../../src/cli/check';
import { SWARM_RACE_PLAYS } from '../../src/engine/swarm';
import { findScenario } from '../../src/scenarios';
import { analyzeStatement } from '../../src/sql/analyze';
import { analyzeWith, type Shape } from '../../src/sql/analyze/analyze';
import { loadParser } from '../../src/sql/analyze/parser';
import type { Settings } from '../../src/sim/types';
import { customClaimStrategy, customWrite } from '../../src/strategies/custom';
import { type CorpusVariant, readCorpus } from '../support/claim-corpus';
import { compareStateGraph, type Databases, describeDivergences, openDatabases, summary } from './differential';

const CASE_TIMEOUT_MS = 600_000;

/** The variants whose finder locks nothing: the after-wait the lab replays with what the finder found (resume-found). */
const RESUMED = ['04', '14', '15', '19', '24', '25', '37', '38'];

const SCENARIOS = {
  claim: [
    { id: 'race', fencing: false },
    { id: 'lock-wait', fencing: true },
  ],
  complete: [{ id: 'paused-worker', fencing: true }],
} as const;

/** A completion plays beside the lab's atomic claim, given as text like any other. */
const SKIP_LOCKED = readFileSync(new URL('../../src/strategies/skip-locked/claim-skip-locked.sql', import.meta.url), 'utf8');

/** The settings that play the variant, or why the lab refuses it. */
async function settingsFor(variant: CorpusVariant, fencing: boolean): Promise<{ settings: Settings } | { refused: string }> {
  const analysis = await analyzeStatement(variant.sql, variant.role);
  if (!analysis.ok) return { refused: analysis.error.message };
  const base: Settings = { strategy: 'skip-locked', fencing };
  if (variant.role === 'claim') {
    const built = customClaimStrategy(variant.sql, analysis.shape, variant.file);
    return built.ok ? { settings: { ...base, definition: built.definition } } : { refused: built.reason };
  }
  const claim = await analyzeStatement(SKIP_LOCKED, 'claim');
  if (!claim.ok) throw new Error(claim.error.message);
  const strategy = customClaimStrategy(SKIP_LOCKED, claim.shape, 'claim-skip-locked.sql');
  if (!strategy.ok) throw new Error(strategy.reason);
  const write = customWrite('complete', variant.sql, analysis.shape, variant.file);
  if (!write.ok) return { refused: write.reason };
  return { settings: { ...base, definition: { ...strategy.definition, complete: { fenced: write.statement, unfenced: write.statement } } } };
}

/**
 * Three workers often wait on one row: which one PostgreSQL wakes first after a commit is its own race (a
 * claim whose finder locks nothing met PGlite's order in 1 play of 5 in some schedules), so a schedule that
 * wakes several waiters is played as often as the swarm plays one before it counts as a divergence.
 */
const racePlaysFor = (id: string) => (id === 'three-workers' ? SWARM_RACE_PLAYS : undefined);

/**
 * What sets claims apart for the engine: where the finder sits, its lock (FOR UPDATE and FOR NO KEY UPDATE
 * conflict alike with every lock the lab's statements take, so they are one), what that lock does on a
 * locked row, and what the UPDATE re-checks after a wait.
 */
function shapeKey(shape: Shape): string {
  const lock = shape.locks[0];
  const strength = lock?.strength === 'no key update' ? 'update' : lock?.strength;
  const locking = lock ? `FOR ${strength} ${lock.wait} in the ${lock.where.kind}` : 'no lock';
  const { onTheRow, againstRowsFoundBefore } = shape.recheck;
  const recheck =
    againstRowsFoundBefore.length === 0 ? 'the row alone' : onTheRow.length > 0 ? 'joins what it found, re-checks the row' : 'joins what it found';
  return `${shape.finder}, ${locking}, ${recheck}`;
}

/**
 * What a third worker changes: two waiters on one row, each resumed by the engine's after-wait recipe (a
 * waiting finder relocks what it found; one that locks nothing resumes with what it found frozen), and
 * whether the resumed UPDATE re-checks the row (and so may match nothing yet hold the row). null: the
 * claim never waits (SKIP LOCKED, NOWAIT), and three workers add nothing two do not show.
 */
function waitKey(shape: Shape): string | null {
  const lock = shape.locks[0];
  if (lock && lock.wait !== 'wait') return null;
  const recipe = lock ? `a waiting FOR ${lock.strength === 'no key update' ? 'update' : lock.strength} finder` : 'no lock';
  return `${recipe}, ${shape.recheck.onTheRow.length > 0 ? 're-checks the row' : 'joins what it found'}`;
}

const parser = await loadParser();
/** The first claim the lab accepts of each shape (a crash), and of each way to wait (three workers). */
const representatives = new Map<string, CorpusVariant>();
const waiters = new Map<string, CorpusVariant>();
for (const variant of readCorpus()) {
  if (variant.role !== 'claim') continue;
  const analysis = analyzeWith(parser, variant.sql, variant.role);
  if (!analysis.ok) continue;
  if (!representatives.has(shapeKey(analysis.shape))) representatives.set(shapeKey(analysis.shape), variant);
  const wait = waitKey(analysis.shape);
  if (wait !== null && !waiters.has(wait)) waiters.set(wait, variant);
}
const costly = new Map<string, { id: string; fencing: boolean }[]>();
for (const variant of waiters.values()) costly.set(variant.file, [{ id: 'three-workers', fencing: false }]);
for (const variant of representatives.values()) costly.set(variant.file, [...(costly.get(variant.file) ?? []), { id: 'crash-orphan', fencing: true }]);

/** Where each part plays: the two-worker races in every run, the costly ones in the full ground truth only. */
const PARTS = {
  'two workers': { costly: null, everyRun: true },
  'crash-orphan': { costly: 'crash-orphan', everyRun: false },
  'three-workers': { costly: 'three-workers', everyRun: false },
} as const;
export type CorpusCoverPart = keyof typeof PARTS;

const FULL = process.env.GROUND_TRUTH === 'full';

function casesOf(part: CorpusCoverPart) {
  const { costly: scenarioId } = PARTS[part];
  return readCorpus().flatMap((variant) =>
    (scenarioId === null ? SCENARIOS[variant.role as 'claim' | 'complete'] : (costly.get(variant.file) ?? []).filter((s) => s.id === scenarioId)).map(
      (scenario) => ({ variant, ...scenario }),
    ),
  );
}

/**
 * One part of the corpus cover, in a test file of its own (claim-corpus-cover*.test.ts) so that vitest's two
 * workers share the parts: a crash and three workers cost minutes a claim, in the full ground truth only
 * (GROUND_TRUTH=full, which CI runs).
 */
export function coverTheCorpus(part: CorpusCoverPart): void {
  if (!PARTS[part].everyRun && !FULL) {
    describe(`the claim corpus in ${part}`, () => it.skip('in the full ground truth (GROUND_TRUTH=full)', () => {}));
    return;
  }
  const cases = casesOf(part);
  let dbs: Databases;

  beforeAll(async () => {
    dbs = await openDatabases(`claim_corpus_cover_${part.replace(/\W+/g, '_')}`);
    // As `check` plays a custom claim: a claim that took several runs stops the play with its reason.
    guardCustomClaim(dbs.pglite);
  });

  afterAll(async () => {
    await dbs?.close();
  });

  describe(`the claim corpus through the state-graph cover in ${part}, PGlite against a real PostgreSQL`, () => {
    if (part === 'two workers')
      it('the lab accepts every variant whose finder locks nothing, and most of the corpus', async () => {
        const accepted: string[] = [];
        for (const variant of readCorpus()) if ('settings' in (await settingsFor(variant, true))) accepted.push(variant.file);
        for (const n of RESUMED)
          expect(
            accepted.some((file) => file.startsWith(n)),
            `corpus ${n}`,
          ).toBe(true);
        expect(accepted.length).toBeGreaterThanOrEqual(20);
      });

    if (part === 'two workers')
      it('plays a crash with one claim of each shape the lab accepts, and three workers with one of each way to wait', () => {
        console.info([...representatives].map(([key, variant]) => `crash-orphan: ${variant.file}: ${key}`).join('\n'));
        console.info([...waiters].map(([key, variant]) => `three-workers: ${variant.file}: ${key}`).join('\n'));
        const files = (scenario: string) => [...costly].filter(([, scenarios]) => scenarios.some((s) => s.id === scenario)).map(([file]) => file.slice(0, 2));
        expect(files('crash-orphan')).toEqual(expect.arrayContaining(['01', '02', '03', '04', '05', '06', '14', '15', '16', '17', '19', '37']));
        expect(files('three-workers')).toEqual(expect.arrayContaining(['02', '04', '05', '15']));
      });

    it.for(cases)('$variant.file in $id (fencing $fencing)', { timeout: CASE_TIMEOUT_MS }, async ({ variant, id, fencing }, { signal }) => {
      const scenario = findScenario(id)!;
      const prepared = await settingsFor(variant, fencing);
      if ('refused' in prepared) {
        // A refusal is one line that says why.
        expect(prepared.refused).toMatch(/^[^\n]{20,}$/);
        expect(
          RESUMED.some((n) => variant.file.startsWith(n)),
          `${variant.file} is refused: ${prepared.refused}`,
        ).toBe(false);
        return;
      }
      let result: Awaited<ReturnType<typeof compareStateGraph>>;
      try {
        result = await compareStateGraph(dbs, scenario, prepared.settings, signal, racePlaysFor(id));
      } catch (error) {
        // Refused while playing (the guard, or a wait the engine cannot replay): a user-facing line.
        if (!(error as { userFacing?: boolean }).userFacing) throw error;
        expect((error as Error).message).toMatch(/refused: [^\n]+$/);
        expect(
          RESUMED.some((n) => variant.file.startsWith(n)),
          `${variant.file} is refused while playing: ${(error as Error).message}`,
        ).toBe(false);
        return;
      }
      console.info(`${summary(`${variant.file} in ${id}`, result)}; ${result.states} states, ${result.edges} steps`);
      expect(result.cut).toBe(false);
      expect(result.schedules).toBeGreaterThan(0);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    });
  });
}
