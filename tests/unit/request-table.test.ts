/**
 * The request table (src/webworker/requests.ts) answers in-process what the Web Worker answers: every
 * request, the backpressure lab's included, and the lesson's loan of the learner's database is taken back
 * before the learner's next move.
 */
import { describe, expect, it } from 'vitest';
import { PGliteBackpressure } from '../../src/db/pglite-backpressure';
import { findScenario } from '../../src/scenarios';
import { findPreset } from '../../src/sim/backpressure/presets';
import { BackpressureHost } from '../../src/webworker/backpressure-host';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { REQUESTS } from '../../src/webworker/requests';
import { labDatabase } from '../support/lab';

const settings = { strategy: 'naive' as const, fencing: false };

function engine(): InProcessLabClient {
  return new InProcessLabClient(labDatabase, { openBackpressure: async () => PGliteBackpressure.open((await labDatabase()).pg) });
}

describe('the request table', () => {
  it('has one entry per request the lab sends (the runaway check is a developer check, not one of them)', () => {
    expect(Object.keys(REQUESTS).sort()).toEqual(['apply', 'backpressure', 'console', 'load', 'reopen', 'run-trace', 'spec']);
  });

  it("answers the backpressure lab in-process with the numbers of the lab's own host", async () => {
    const config = { ...findPreset('overload')!.config, streamRuns: 20 };
    const request = { type: 'backpressure' as const, config, policy: 'fair' as const, from: 0, seconds: 15 };
    const local = await engine().request(request);
    const direct = await new BackpressureHost(async () => PGliteBackpressure.open((await labDatabase()).pg)).play(request);
    expect(local.ticks.length).toBe(15);
    expect(local).toEqual(direct);
  });

  it("takes the database back from the lesson before the learner's next step: the same step as with no loan", async () => {
    const lent = engine();
    await lent.request({ type: 'load', scenarioId: 'race', settings, schedule: ['A', 'B', 'A'], onInapplicable: 'stop' });
    const trace = await lent.request({ type: 'run-trace', scenario: findScenario('race')!, settings, schedule: ['B', 'B', 'B'] });
    expect(trace.schedule).toEqual(['B', 'B', 'B']);
    const afterLoan = await lent.request({ type: 'apply', candidates: ['B'], fallback: false });

    const kept = engine();
    await kept.request({ type: 'load', scenarioId: 'race', settings, schedule: ['A', 'B', 'A'], onInapplicable: 'stop' });
    const noLoan = await kept.request({ type: 'apply', candidates: ['B'], fallback: false });

    expect(afterLoan.token).toBe('B');
    expect(afterLoan).toEqual(noLoan);
  });

  it('refuses the runaway check in-process, where nothing could stop it', async () => {
    await expect(engine().request({ type: 'runaway' })).rejects.toThrow('cannot run away');
  });
});
