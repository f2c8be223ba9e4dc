/**
 * The page's spec runner through the request table (the Web Worker answers it the same way): a pasted spec
 * runs on a PGlite of its own and answers what `npm run sim -- spec` prints; bad input is one line; the
 * learner's scenario stands exactly as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLabStore } from '../../src/store/lab-store';
import { SPEC_LIMIT_MS } from '../../src/webworker/client';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import type { SpecResult } from '../../src/webworker/protocol';
import { HangingLabClient } from '../support/hanging-client';
import { labDatabase } from '../support/lab';

const example = (name: string) => readFileSync(join(__dirname, '../../docs/examples', name), 'utf8');

/** `npm run sim -- spec docs/examples/claim-naive.spec`, its permutation "a_poll b_poll a_claim b_claim", as the command line printed it. */
const CLI_NAIVE_SECOND =
  "\nstarting permutation: a_poll b_poll a_claim b_claim\nstep a_poll: INSERT INTO polled SELECT 'A', run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1;\nstep b_poll: INSERT INTO polled SELECT 'B', run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1;\nstep a_claim: UPDATE runs SET status = 'running', lease_owner = 'A', lease_generation = lease_generation + 1 WHERE run_id = (SELECT run_id FROM polled WHERE worker = 'A') RETURNING run_id, lease_generation;\nrun_id|lease_generation\n------+----------------\n   123|              18\n(1 row)\n\nstep b_claim: UPDATE runs SET status = 'running', lease_owner = 'B', lease_generation = lease_generation + 1 WHERE run_id = (SELECT run_id FROM polled WHERE worker = 'B') RETURNING run_id, lease_generation;\nrun_id|lease_generation\n------+----------------\n   123|              19\n(1 row)\n\ncheck \"no run claimed twice\" broken:\nrun_id|lease_generation\n------+----------------\n   123|              19\n(1 row)\n\n";

function ran(result: SpecResult) {
  if (result.kind !== 'ran') throw new Error(`the spec did not run: ${result.message}`);
  return result;
}

describe('the page runs a pasted spec (request "spec")', () => {
  it("answers claim-naive.spec and race.spec as the command line does, and leaves the learner's scenario as it was", async () => {
    const lab = new InProcessLabClient(labDatabase);
    const settings = { strategy: 'naive' as const, fencing: false };
    await lab.request({ type: 'load', scenarioId: 'race', settings, schedule: ['A', 'B', 'A'], onInapplicable: 'stop' });
    const runsNow = async () => {
      const { ms: _ms, ...answer } = (await lab.request({ type: 'console', sql: 'SELECT * FROM runs ORDER BY run_id', upTo: 3, maxRows: 50 })) as {
        ms?: number;
      };
      return answer;
    };
    const before = await runsNow();

    const naive = ran(await lab.request({ type: 'spec', text: example('claim-naive.spec') }));
    expect(naive.header).toBe('Parsed test spec with 2 sessions\n');
    expect(naive.permutations).toHaveLength(6);
    expect(naive.permutations[1]!.output).toBe(CLI_NAIVE_SECOND);
    expect(naive.permutations.filter((p) => p.brokenChecks.length > 0)).toHaveLength(4);
    expect(naive.exitCode).toBe(1);
    expect(naive.summary).toContain('BROKEN: no run claimed twice (exit 1)');

    // Every step calls set_config(): PGlite cannot follow one, and says so, as the command line does (less its "--db" tail).
    const race = ran(await lab.request({ type: 'spec', text: example('race.spec') }));
    expect(race.permutations[0]!.refused).toBe("step a_poll: it calls set_config(): settings are the one PGlite backend's, shared by all sessions");
    expect(race.permutations.every((p) => p.refused !== null)).toBe(true);
    expect(race.exitCode).toBe(2);

    // The learner's place: the same rows, and the next step as on a lab that never ran a spec.
    expect(await runsNow()).toEqual(before);
    const next = await lab.request({ type: 'apply', candidates: ['B'], fallback: false });
    const control = new InProcessLabClient(labDatabase);
    await control.request({ type: 'load', scenarioId: 'race', settings, schedule: ['A', 'B', 'A'], onInapplicable: 'stop' });
    expect(next).toEqual(await control.request({ type: 'apply', candidates: ['B'], fallback: false }));
  }, 60_000);

  it('answers a spec that does not parse with one line naming its line, without starting a database', async () => {
    const lab = new InProcessLabClient(labDatabase);
    const text = example('claim-naive.spec').replace('session B', 'sesion B');
    const result = await lab.request({ type: 'spec', text });
    expect(result.kind).toBe('bad-input');
    if (result.kind !== 'bad-input') return;
    expect(result.message).toMatch(/^line 34, column 1: unexpected "sesion"/);
    expect(result.message).not.toContain('\n');
  });

  it("a spec the watchdog stops: the learner's scenario is reopened on the new engine (LabHost.reopen), and the panel says why", async () => {
    const engine = new HangingLabClient(new InProcessLabClient(labDatabase), (request) =>
      request.type === 'spec' ? { limitMs: SPEC_LIMIT_MS, worker: 'new' } : null,
    );
    const store = createLabStore({ lab: engine, storage: null });
    await store.getState().start('#scenario=race&strategy=naive&fencing=off&schedule=A,B,A&step=3');
    const before = { schedule: store.getState().schedule, position: store.getState().position };
    await store.getState().runSpec(example('claim-naive.spec'));
    expect(engine.sent.slice(-2)).toEqual(['spec', 'reopen']);
    expect({ schedule: store.getState().schedule, position: store.getState().position }).toEqual(before);
    expect(store.getState().specRunner).toMatchObject({ running: false, result: null });
    expect(store.getState().specRunner.failure).toMatch(/^The spec gave no sign of life for 60 s, so the lab stopped it .* you are where you were\.$/);
  });
});
