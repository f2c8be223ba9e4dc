/**
 * The words above the lab agree with the claim the learner chose. For every scenario under every claim,
 * the summary the header shows (scenarioSummary) may name only what that claim does: no SKIP LOCKED under
 * the naive claim, no reclaiming under a claim that reads only pending runs. Then every scenario's script is
 * played on PGlite under every claim, fencing on and off, and each thing the summary says happens is
 * checked against the trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { runSchedule } from '../../src/engine/run';
import { LIMIT_SCENARIOS, SCENARIOS, scenarioSummary } from '../../src/scenarios';
import type { Strategy, Trace } from '../../src/sim/types';
import { ATOMIC_STRATEGY_IDS, LAB_STRATEGY_IDS, LIMIT_STRATEGY_IDS, QUEUE_STRATEGY_IDS, strategyDefinition } from '../../src/strategies';

/** The lab's own claims: the scenarios' summaries tell their stories (a queue's claim gets its own line, below). */
const STRATEGIES: readonly Strategy[] = LAB_STRATEGY_IDS;

const ATOMIC: readonly Strategy[] = ATOMIC_STRATEGY_IDS;
const SELECT_THEN_UPDATE: readonly Strategy[] = STRATEGIES.filter((id) => !ATOMIC.includes(id));

/** Behaviour a summary may name, and the claims that have it. */
const VOCABULARY: { names: RegExp; what: string; strategies: readonly Strategy[] }[] = [
  { names: /SKIP LOCKED/, what: 'SKIP LOCKED', strategies: ['skip-locked'] },
  { names: /\bNOWAIT\b|55P03/, what: 'NOWAIT', strategies: ['nowait'] },
  { names: /plain FOR UPDATE/, what: 'plain FOR UPDATE', strategies: ['for-update'] },
  { names: /compare-and-set|only if it is still pending/i, what: 'compare-and-set', strategies: ['cas'] },
  { names: /checks nothing|SELECT then UPDATE both/, what: 'the blind UPDATE', strategies: ['naive'] },
  { names: /\b(locks|locked)\b/, what: 'a claim that locks its row', strategies: ATOMIC },
  { names: /atomic claim/, what: 'the atomic claim', strategies: ATOMIC },
  { names: /(?<!ever\s)\breclaim(s|ed)?\b|takes? the run over/, what: 'reclaiming an expired lease', strategies: ATOMIC },
  { names: /reads only pending runs/, what: 'a claim that reads only pending runs', strategies: SELECT_THEN_UPDATE },
];

/** The lesson's scenarios; an incident's summary is its queue's story (tests/unit/incidents.test.ts plays it). */
const LESSON_SCENARIOS = SCENARIOS.filter((scenario) => !scenario.incident);

describe('an incident under another claim says so, and under its fix names the fix', () => {
  const incidents = SCENARIOS.filter((scenario) => scenario.incident);
  it.each(incidents.map((scenario) => [scenario.id, scenario] as const))('%s', (_, scenario) => {
    const incident = scenario.incident!;
    expect(scenarioSummary(scenario, incident.queue)).toBe(scenario.summary);
    // A fix that is the queue's own guard (fencing on) keeps the queue's story; a fix under another claim names itself.
    if (incident.fix.strategy !== incident.queue) expect(scenarioSummary(scenario, incident.fix.strategy)).toContain(`The fix for ${incident.source}`);
    const other = LAB_STRATEGY_IDS.find((id) => id !== incident.fix.strategy)!;
    expect(scenarioSummary(scenario, other)).toMatch(/instead of .*'s\./);
  });
});

describe("under a production queue's claim, the summary names the queue and tells none of the lab's stories", () => {
  const cases = LESSON_SCENARIOS.flatMap((scenario) => QUEUE_STRATEGY_IDS.map((strategy) => [scenario.id, strategy] as const));
  it.each(cases)('%s under %s', (id, strategy) => {
    const summary = scenarioSummary(SCENARIOS.find((s) => s.id === id)!, strategy);
    expect(summary).toContain(strategyDefinition(strategy).queue!.name);
    for (const word of VOCABULARY.filter((w) => w.what !== 'a claim that locks its row'))
      expect(word.names.test(summary), `"${summary}" names ${word.what}`).toBe(false);
  });
});

describe('each scenario names only behaviour of the claim it is shown under', () => {
  const cases = LESSON_SCENARIOS.flatMap((scenario) => STRATEGIES.map((strategy) => [scenario.id, strategy, scenarioSummary(scenario, strategy)] as const));

  it.each(cases)('%s under %s', (_, strategy, summary) => {
    for (const word of VOCABULARY) {
      if (word.names.test(summary)) expect(word.strategies, `"${summary}" names ${word.what}`).toContain(strategy);
    }
  });

  it('the vocabulary catches what bug 8 found: SKIP LOCKED and reclaiming under the naive claim', () => {
    const threeWorkers = SCENARIOS.find((s) => s.id === 'three-workers')!;
    const crashOrphan = SCENARIOS.find((s) => s.id === 'crash-orphan')!;
    const named = (text: string) => VOCABULARY.filter((word) => word.names.test(text) && !word.strategies.includes('naive')).map((word) => word.what);
    expect(named(threeWorkers.summary)).toContain('SKIP LOCKED');
    expect(named(crashOrphan.summary)).toContain('reclaiming an expired lease');
    expect(named(scenarioSummary(crashOrphan, 'naive'))).toEqual([]);
  });
});

/** Acme's runs running under both workers at once (the rows as committed). */
function acmeUnderBoth(runs: Trace['finalRuns']): boolean {
  return (
    new Set(runs.filter((r) => r.tenant === 'acme' && r.status === 'running' && (r.lease_owner === 'A' || r.lease_owner === 'B')).map((r) => r.lease_owner))
      .size === 2
  );
}

/** What a summary says happens, and how to see it in the trace. */
const EVENTS: { says: RegExp; what: string; holds: (trace: Trace) => boolean; fencing?: boolean }[] = [
  {
    says: /both claim it|both pay|all claim the same run|double claim/,
    what: 'a run executed twice',
    holds: (t) => t.anomalies.some((a) => a.kind === 'duplicate-execution'),
  },
  {
    says: /no run gets two owners|exactly one owner|No run is claimed twice/,
    what: 'no run with two owners',
    holds: (t) => !t.anomalies.some((a) => a.kind === 'duplicate-execution' || a.kind === 'split-ownership'),
  },
  { says: /stays running under a dead (owner|worker)/, what: 'a stranded run', holds: (t) => t.anomalies.some((a) => a.kind === 'stranded-run') },
  {
    says: /reclaims it for B|B reclaims the run/,
    what: 'B taking over a run A had claimed',
    holds: (t) =>
      t.steps.some(
        (s) =>
          s.actor === 'B' &&
          s.action === 'claim' &&
          s.verdict === 'ok' &&
          t.steps.some((e) => e.index < s.index && e.actor === 'A' && e.runId === s.runId && e.verdict === 'ok' && e.action === 'claim'),
      ),
  },
  { says: /the cancel is lost/, what: 'a lost cancel', holds: (t) => t.anomalies.some((a) => a.kind === 'lost-cancel') },
  {
    says: /fencing rejects it/,
    what: 'a stale write rejected',
    fencing: true,
    holds: (t) => t.steps.some((s) => s.staleWrite !== null && s.verdict === 'rejected'),
  },
  {
    says: /without fencing both believe/,
    what: 'a stale write committed',
    fencing: false,
    holds: (t) => t.steps.some((s) => s.staleWrite !== null && s.verdict === 'ok'),
  },
  { says: /nothing for fencing to reject/, what: 'no stale write', holds: (t) => t.steps.every((s) => s.staleWrite === null) },
  { says: /B finds no work|finds none/, what: 'B finding nothing', holds: (t) => t.steps.some((s) => s.actor === 'B' && s.verdict === 'empty') },
  {
    says: /takes run 124/,
    what: 'B claiming run 124',
    holds: (t) => t.steps.some((s) => s.actor === 'B' && s.verdict === 'ok' && s.runId === 124 && /claim/.test(s.action)),
  },
  { says: /(?<!nobody )\bwaits\b/, what: 'a claim waiting for a lock', holds: (t) => t.steps.some((s) => s.verdict === 'blocked') },
  { says: /nobody waits|nothing to wait for/, what: 'no lock wait', holds: (t) => t.steps.every((s) => s.verdict !== 'blocked') },
  { says: /fails at once/, what: 'a claim failing with 55P03', holds: (t) => t.steps.some((s) => s.outcome?.status === 'error' && s.outcome.code === '55P03') },
  {
    says: /match(es)? 0 rows/,
    what: 'a compare-and-set matching 0 rows',
    holds: (t) => t.steps.some((s) => s.action === 'cas-claim' && s.verdict === 'empty'),
  },
  {
    says: /finishes the run/,
    what: 'A completing the run',
    holds: (t) => t.steps.some((s) => s.actor === 'A' && s.action === 'complete' && s.verdict === 'ok'),
  },
  {
    says: /A sees the flag/,
    what: 'A acknowledging the cancel',
    holds: (t) => t.steps.some((s) => s.actor === 'A' && s.action === 'cancel-ack' && s.verdict === 'ok'),
  },
  {
    says: /renews its lease on time but never finishes/,
    what: 'A heartbeating without progress',
    holds: (t) => t.anomalies.some((a) => a.kind === 'stuck-while-heartbeating'),
  },
  {
    says: /no one rescues the run/i,
    what: "run 123 still A's at the end",
    holds: (t) => t.finalRuns.some((r) => r.run_id === 123 && r.status === 'running' && r.lease_owner === 'A'),
  },
  {
    says: /acme's runs take both workers while beta's run 124 stays pending/,
    what: "acme's runs under A and B at once while beta's run 124 is pending",
    holds: (t) => t.steps.some((s) => acmeUnderBoth(s.runs) && s.runs.some((r) => r.run_id === 124 && r.status === 'pending')),
  },
  {
    says: /A passes over acme's runs for beta's run 124/,
    what: "A claiming beta's run 124 while acme's older runs are pending",
    holds: (t) =>
      t.steps.some(
        (s) =>
          s.actor === 'A' && s.action === 'claim' && s.verdict === 'ok' && s.runId === 124 && s.runs.some((r) => r.tenant === 'acme' && r.status === 'pending'),
      ),
  },
  {
    says: /never runs two at once/,
    what: "no step with two of acme's runs under the workers",
    holds: (t) => !t.steps.some((s) => acmeUnderBoth(s.runs)),
  },
  {
    says: /the run is still A's/,
    what: "B finding A's run still owned",
    holds: (t) => t.finalRuns.some((r) => r.lease_owner === 'A') && !t.steps.some((s) => s.actor === 'B' && s.action === 'claim' && s.verdict === 'ok'),
  },
];

let db: PGliteLab;

beforeAll(async () => {
  db = await bootLabDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** Each thing the summary of the scenario under this claim says happens happens in its script, fencing on and off. */
async function expectSummaryHolds(scenario: (typeof SCENARIOS)[number], strategy: Strategy): Promise<void> {
  const summary = scenarioSummary(scenario, strategy);
  for (const fencing of [true, false]) {
    // As the lab plays a script under another claim: a step that cannot apply is left out.
    const trace = await runSchedule(db, scenario, { strategy, fencing }, scenario.script, { onInapplicable: 'skip' });
    for (const event of EVENTS) {
      if (!event.says.test(summary) || (event.fencing !== undefined && event.fencing !== fencing)) continue;
      expect(event.holds(trace), `fencing ${fencing ? 'on' : 'off'}: "${summary}" says ${event.what}`).toBe(true);
    }
  }
}

describe("what each summary says happens happens, in the scenario's script, fencing on and off", () => {
  const cases = LESSON_SCENARIOS.flatMap((scenario) => STRATEGIES.map((strategy) => [scenario.id, strategy, scenario] as const));

  it.each(cases)('%s under %s', async (_, strategy, scenario) => {
    await expectSummaryHolds(scenario, strategy);
  });

  it('every summary is checked for something it says', () => {
    const unchecked = LESSON_SCENARIOS.flatMap((scenario) =>
      STRATEGIES.filter((strategy) => !EVENTS.some((event) => event.says.test(scenarioSummary(scenario, strategy)))).map(
        (strategy) => `${scenario.id}/${strategy}`,
      ),
    );
    expect(unchecked).toEqual([]);
  });
});

describe('a scenario about a limit, under the claim that enforces it, says what its script does', () => {
  const cases = LIMIT_SCENARIOS.flatMap((scenario) => LIMIT_STRATEGY_IDS.map((strategy) => [scenario.id, strategy, scenario] as const));

  it.each(cases)('%s under %s', async (_, strategy, scenario) => {
    expect(EVENTS.some((event) => event.says.test(scenarioSummary(scenario, strategy)))).toBe(true);
    await expectSummaryHolds(scenario, strategy);
  });
});
