/**
 * A claim someone wrote (what `npm run sim -- check --claim FILE` plays) must be played as faithfully as the
 * lab's own. Two checks:
 * - The lab's claim files, passed as typed text, give exactly the built-in strategy's outcome groups (the
 *   same counts and the same shortest witnesses) over every schedule: the analyzer's probe and, for the plain
 *   FOR UPDATE claim, its derived relock recipe, behave as the hand-written files do.
 * - A claim the checker finds unsafe (corpus 12: a reclaim that does not bump the generation; the README's
 *   example, a claim that takes running runs whatever their lease) has its witnesses replayed on a real PostgreSQL, one connection per worker: the same outcome, the same final
 *   runs, every step compared by the differential harness.
 * - good_job's claim with a transaction-level try-lock (pg_try_advisory_xact_lock), which PGlite plays because
 *   the claim's parked (prepared) transaction holds the lock as the worker's transaction does on a server:
 *   every schedule of race and a seeded sample of crash-orphan, step by step equal on PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploredSchedule, exploreSchedules, seededSchedules } from '../../src/engine/enumerate';
import { exploreFast, outcomeOf } from '../../src/engine/explore';
import { runSchedule } from '../../src/engine/run';
import { findScenario } from '../../src/scenarios';
import { analyzeStatement } from '../../src/sql/analyze';
import type { Settings } from '../../src/sim/types';
import { customClaimStrategy, customWrite, type WriteRole } from '../../src/strategies/custom';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, playUntilRefused, wakesSeveralWaiters } from './differential';

const root = join(__dirname, '../..');

/** The lab's claim with the owner's writes of `files` (each fenced and unfenced alike). */
async function writesSettings(files: Partial<Record<WriteRole, string>>, fencing: boolean): Promise<Settings> {
  const settings = await customSettings('src/strategies/skip-locked/claim-skip-locked.sql', fencing);
  let definition = settings.definition!;
  for (const [role, path] of Object.entries(files) as [WriteRole, string][]) {
    const text = readFileSync(join(root, path), 'utf8');
    const analysis = await analyzeStatement(text, role);
    if (!analysis.ok) throw new Error(`${path}: ${analysis.error.message}`);
    const built = customWrite(role, text, analysis.shape, path);
    if (!built.ok) throw new Error(`${path}: ${built.reason}`);
    definition = { ...definition, [role]: { fenced: built.statement, unfenced: built.statement } };
  }
  return { ...settings, definition };
}

async function customSettings(path: string, fencing: boolean): Promise<Settings> {
  const text = readFileSync(join(root, path), 'utf8');
  const analysis = await analyzeStatement(text, 'claim');
  if (!analysis.ok) throw new Error(`${path}: ${analysis.error.message}`);
  const built = customClaimStrategy(text, analysis.shape, path);
  if (!built.ok) throw new Error(`${path}: ${built.reason}`);
  // The built-in id only names the base; the definition is what the workers play.
  return { strategy: 'skip-locked', fencing, definition: built.definition };
}

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('custom_claim', 1);
});

afterAll(async () => {
  await dbs?.close();
});

const SAME_AS_BUILT_IN = [
  { strategy: 'skip-locked', file: 'src/strategies/skip-locked/claim-skip-locked.sql', scenario: 'race', fencing: false },
  { strategy: 'skip-locked', file: 'src/strategies/skip-locked/claim-skip-locked.sql', scenario: 'crash-orphan', fencing: true },
  { strategy: 'skip-locked', file: 'src/strategies/skip-locked/claim-skip-locked.sql', scenario: 'paused-worker', fencing: true },
  { strategy: 'for-update', file: 'src/strategies/for-update/claim-for-update.sql', scenario: 'lock-wait', fencing: true },
  { strategy: 'for-update', file: 'src/strategies/for-update/claim-for-update.sql', scenario: 'race', fencing: false },
  { strategy: 'for-update', file: 'src/strategies/for-update/claim-for-update.sql', scenario: 'crash-orphan', fencing: true },
  { strategy: 'nowait', file: 'src/strategies/nowait/claim-nowait.sql', scenario: 'lock-wait', fencing: true },
] as const;

describe('a custom claim with the text of a built-in one', () => {
  it.for(SAME_AS_BUILT_IN)('$file in $scenario (fencing $fencing) gives the $strategy groups exactly', async ({ strategy, file, scenario: id, fencing }) => {
    const scenario = findScenario(id)!;
    const builtIn = await exploreFast(dbs.pglite, scenario, { strategy, fencing });
    const custom = await exploreFast(dbs.pglite, scenario, await customSettings(file, fencing));
    expect(builtIn.total).toBeGreaterThan(1);
    expect(custom.total).toBe(builtIn.total);
    expect(custom.groups).toEqual(builtIn.groups);
  });
});

const UNSAFE = [
  {
    file: 'tests/ground-truth/claim-corpus/12-reclaim-without-generation-bump.sql',
    scenario: 'paused-worker',
    fencing: true,
    // The paused worker's writes pass the fence and commit over B's run; its model call after it woke is duplicate work after its lease ran out.
    unsafe: 'duplicate-after-expiry:123 split-ownership:123',
  },
  {
    file: 'docs/examples/claim-ignores-the-lease.sql',
    scenario: 'race',
    fencing: false,
    unsafe: 'double-claim:123 duplicate-execution:123 split-ownership:123',
  },
  { file: 'tests/ground-truth/claim-corpus/32-complete-by-id-only.sql', scenario: 'paused-worker', fencing: true, unsafe: 'split-ownership:123' },
] as const;

const SAME_WRITES = [
  { scenario: 'paused-worker', files: { complete: 'src/sql/complete-fenced.sql' } },
  { scenario: 'crash-orphan', files: { complete: 'src/sql/complete-fenced.sql' } },
  { scenario: 'heartbeat', files: { heartbeat: 'src/sql/heartbeat-fenced.sql', work: 'src/sql/work-fenced.sql', complete: 'src/sql/complete-fenced.sql' } },
] as const;

describe("custom owner's writes with the text of the lab's fenced ones", () => {
  // heartbeat is explored whole twice here: over a minute on a busy 2-core machine.
  it.for(SAME_WRITES)('$files in $scenario (fencing on) give the built-in groups exactly', { timeout: 300_000 }, async ({ scenario: id, files }) => {
    const scenario = findScenario(id)!;
    const builtIn = await exploreFast(dbs.pglite, scenario, { strategy: 'skip-locked', fencing: true });
    const custom = await exploreFast(dbs.pglite, scenario, await writesSettings(files, true));
    expect(builtIn.total).toBeGreaterThan(1);
    expect(custom.groups).toEqual(builtIn.groups);
  });
});

describe('an unsafe custom claim on a real server', () => {
  it.for(UNSAFE)('$file in $scenario: every witness ends the same on PostgreSQL, $unsafe included', async ({ file, scenario: id, fencing, unsafe }, {
    signal,
  }) => {
    const scenario = findScenario(id)!;
    const settings = file.includes('complete') ? await writesSettings({ complete: file }, fencing) : await customSettings(file, fencing);
    const explored = await exploreFast(dbs.pglite, scenario, settings);
    expect(explored.groups.map((group) => group.key)).toContain(unsafe);
    const witnesses: ExploredSchedule[] = [];
    for (const group of explored.groups) {
      const trace = await runSchedule(dbs.pglite, scenario, settings, group.witness);
      expect(outcomeOf(trace.anomalies).key, `PGlite: ${group.witness.join(',')}`).toBe(group.key);
      witnesses.push({ schedule: group.witness, trace });
    }
    const lab = dbs.postgres[0]!;
    let replayed = 0;
    for (const { schedule, trace } of witnesses) {
      if (wakesSeveralWaiters(trace)) continue;
      const onServer = await playUntilRefused(lab, scenario, settings, schedule);
      expect(onServer.refused, schedule.join(',')).toBeNull();
      expect(outcomeOf(onServer.trace.anomalies).key, `PostgreSQL: ${schedule.join(',')}`).toBe(outcomeOf(trace.anomalies).key);
      expect(onServer.trace.finalRuns, `PostgreSQL final runs: ${schedule.join(',')}`).toEqual(trace.finalRuns);
      replayed += 1;
    }
    expect(replayed).toBeGreaterThan(0);
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, witnesses, signal);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});

describe('a claim with a transaction-level advisory try-lock on PGlite and on a real server', () => {
  const file = 'tests/fixtures/claims/good-job-advisory-xact.sql';

  it('race: every schedule step by step equal, run 123 double-claimed in 98 of 240 as with --db', async ({ signal }) => {
    const scenario = findScenario('race')!;
    const settings = await customSettings(file, false);
    const every: ExploredSchedule[] = [];
    for await (const explored of exploreSchedules(dbs.pglite, scenario, settings)) every.push(explored);
    expect(every.length).toBe(240);
    expect(every.filter(({ trace }) => outcomeOf(trace.anomalies).key.includes('double-claim:123')).length).toBe(98);
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, every, signal);
    expect(result.schedules).toBe(240);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });

  it('crash-orphan: a seeded sample step by step equal (a crash rolls the parked claim back and frees its lock)', async ({ signal }) => {
    const scenario = findScenario('crash-orphan')!;
    const settings = await customSettings(file, true);
    const sample = await seededSchedules(dbs.pglite, scenario, settings, 30, 7);
    expect(sample.some(({ schedule }) => schedule.some((token) => token.startsWith('crash:')))).toBe(true);
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, sample, signal);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});
