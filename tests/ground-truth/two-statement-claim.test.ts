/**
 * A claim in two statements, psql's way (`SELECT … \gset`, then the UPDATE that uses it as :run_id), played as
 * a step each in one transaction (strategies/custom.ts twoStatementClaim): on PGlite the SELECT's transaction
 * is parked between the two steps, and at the UPDATE it is rolled back and begun again holding the same rows
 * (pglite-lab.ts continueClaim); on a real server it is one open transaction on the worker's connection.
 * Every step from every state of race (which is every schedule: state-graph.ts) and a seeded sample of
 * crash-orphan, step by step equal on PostgreSQL, for:
 * (a) SELECT … FOR UPDATE SKIP LOCKED: safe; (b) a plain SELECT, no lock: the classic double claim;
 * (c) SELECT … FOR UPDATE: safe, B waits for A's row and, once A commits, takes the other run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploredSchedule, exploreSchedules, seededSchedules } from '../../src/engine/enumerate';
import { outcomeOf } from '../../src/engine/explore';
import { findScenario } from '../../src/scenarios';
import { analyzeGsetClaimFile } from '../../src/sql/analyze';
import type { Settings } from '../../src/sim/types';
import { twoStatementClaim } from '../../src/strategies/custom';
import { compareOnPostgres, compareStateGraph, type Databases, describeDivergences, openDatabases } from './differential';

const root = join(__dirname, '../..');

async function settingsOf(file: string, fencing: boolean): Promise<Settings> {
  const analysis = await analyzeGsetClaimFile(readFileSync(join(root, file), 'utf8'));
  if (!analysis?.ok) throw new Error(`${file}: ${analysis ? analysis.error.message : 'no \\gset'}`);
  const built = twoStatementClaim(analysis.claim, file);
  if (!built.ok) throw new Error(`${file}: ${built.reason}`);
  return { strategy: 'skip-locked', fencing, definition: built.definition };
}

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('two_statement_claim', 2);
});

afterAll(async () => {
  await dbs?.close();
});

const CLAIMS = [
  { name: '(a) FOR UPDATE SKIP LOCKED', file: 'tests/fixtures/claims/two-statement-skip-locked.sql', schedules: 924, doubleClaims: 0 },
  { name: '(b) a plain SELECT', file: 'tests/fixtures/claims/two-statement-plain.sql', schedules: 648, doubleClaims: 474 },
  { name: '(c) FOR UPDATE, waiting', file: 'tests/fixtures/claims/two-statement-for-update.sql', schedules: 328, doubleClaims: 0 },
] as const;

describe('a two-statement claim on PGlite and on a real server', () => {
  it.for(CLAIMS)(
    '$name: every step from every state of race equal on the server, and its schedules that double-claim run 123 counted',
    { timeout: 600_000 },
    async (claim, { signal }) => {
      const scenario = findScenario('race')!;
      const settings = await settingsOf(claim.file, false);
      const every: ExploredSchedule[] = [];
      for await (const explored of exploreSchedules(dbs.pglite, scenario, settings)) every.push(explored);
      expect(every.length).toBe(claim.schedules);
      expect(every.filter(({ trace }) => outcomeOf(trace.anomalies).key.includes('double-claim:123')).length).toBe(claim.doubleClaims);
      // Every step from every state the race reaches, on the server (state-graph.ts says why that is every schedule).
      const result = await compareStateGraph(dbs, scenario, settings, signal);
      expect(result.cut).toBe(false);
      expect(result.edges).toBeGreaterThanOrEqual(result.states - 1);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    },
  );

  it.for(CLAIMS)(
    '$name: a seeded sample of crash-orphan step by step equal (a crash between the two statements rolls back what the SELECT locked)',
    {
      timeout: 300_000,
    },
    async (claim, { signal }) => {
      const scenario = findScenario('crash-orphan')!;
      const settings = await settingsOf(claim.file, true);
      const sample = await seededSchedules(dbs.pglite, scenario, settings, 30, 7);
      // A crash between the SELECT and the UPDATE: the crashed worker's last step before it was its SELECT.
      const betweenTheTwo = sample.filter(({ trace }) =>
        trace.steps.some(
          (step, i) =>
            step.action === 'crash' &&
            trace.steps
              .slice(0, i)
              .filter((before) => before.actor === step.actor)
              .at(-1)?.action === 'select',
        ),
      );
      expect(betweenTheTwo.length).toBeGreaterThan(0);
      const result = await compareOnPostgres(dbs.postgres, scenario, settings, sample, signal);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    },
  );
});
