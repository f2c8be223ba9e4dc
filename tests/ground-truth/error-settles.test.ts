/**
 * An error is the answer only once its backend has finished with it. PostgreSQL sends the error before it
 * aborts the transaction and says ReadyForQuery after; a look at the locks between the two may still see the
 * failed transaction's (CI once saw B's lock after B's COMMIT failed 40001, on a loaded machine). A proxy
 * holds every ReadyForQuery after an error back for a while, so a lab or spec driver that answered before
 * it fails here every time, not once in a while.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresLab } from '../../src/db/postgres-lab';
import { PostgresSpecDriver } from '../../src/db/postgres-spec';
import { recordPlan } from '../../src/engine/record';
import { RECORDING_PLANS } from '../../src/recordings';
import { recording } from '../../src/recordings/files';
import { findScenario } from '../../src/scenarios';
import { createDatabase } from '../support/postgres-server';
import { type ReadyHoldingProxy, startReadyHoldingProxy } from '../support/ready-holding-proxy';

const HOLD_MS = 300;
let proxy: ReadyHoldingProxy;

beforeAll(async () => {
  proxy = await startReadyHoldingProxy(await createDatabase(inject('postgresUrl'), 'error_settles'), HOLD_MS);
});

afterAll(async () => {
  await proxy?.close();
});

/** The lab, with every call of it that returns a promise checked: no error's ReadyForQuery may still be held when it settles. */
function watched(lab: PostgresLab, early: string[]): PostgresLab {
  return new Proxy(lab, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then((answer: unknown) => {
          if (proxy.held() > 0) early.push(`${String(property)}(${args.map((arg) => JSON.stringify(arg)?.slice(0, 40)).join(', ')})`);
          return answer;
        });
      };
    },
  });
}

describe('an error is the answer only after its backend let go of its locks', () => {
  it('the lab: the SERIALIZABLE recording, whose COMMITs fail 40001, is still what PostgreSQL answers', { timeout: 60_000 }, async () => {
    const plan = RECORDING_PLANS.find((candidate) => candidate.id === 'three-workers-skip-locked-serializable')!;
    const lab = await PostgresLab.connect(
      proxy.url,
      findScenario(plan.scenarioId)!.workers.map((worker) => worker.id),
    );
    const early: string[] = [];
    try {
      const again = await recordPlan(watched(lab, early), plan, inject('postgresVersion'));
      expect(early).toEqual([]);
      expect(again.steps).toEqual(recording(plan.id).steps);
    } finally {
      await lab.close();
    }
  });

  it('a spec session: a failed step answers after its ReadyForQuery', { timeout: 60_000 }, async () => {
    const driver = await PostgresSpecDriver.open(proxy.url, ['s1']);
    try {
      driver.send('s1', 'SELECT 1/0');
      let outcome = null;
      while (outcome === null) outcome = await driver.poll('s1', 50);
      expect(proxy.held()).toBe(0);
      expect(outcome.replies).toEqual([{ kind: 'error', severity: 'ERROR', code: '22012', message: 'division by zero' }]);
      const setup = await driver.runOnSession('s1', 'SELECT 1/0');
      expect(proxy.held()).toBe(0);
      expect(setup.replies).toHaveLength(1);
    } finally {
      await driver.close();
    }
  });
});
