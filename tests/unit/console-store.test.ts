/**
 * The console through the store: it asks at the cursor (after Back too), and a statement that runs
 * away ends in a restart that puts the learner back exactly where they were.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { createLabStore } from '../../src/store/lab-store';
import { STATEMENT_LIMIT_MS } from '../../src/webworker/client';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { HangingLabClient } from '../support/hanging-client';

/** The real engine, except that console requests hang (fail as the watchdog makes them fail). */
const hangingConsole = (inner: InProcessLabClient) =>
  new HangingLabClient(inner, (request) => (request.type === 'console' ? { limitMs: STATEMENT_LIMIT_MS, worker: 'spare' } : null));

let db: Promise<LabDatabase>;
beforeAll(() => {
  db = bootLabDatabase();
});

const LINK = '#scenario=three-workers&strategy=skip-locked&fencing=on&schedule=A,B,C&step=3';

describe('the console through the store', () => {
  it('asks at the cursor: after Back, the database before the later steps', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start(LINK);
    const sql = 'SELECT gid FROM pg_prepared_xacts ORDER BY gid';
    expect(await store.getState().runConsole(sql)).toMatchObject({
      kind: 'rows',
      rows: [['lease_lab_A'], ['lease_lab_B'], ['lease_lab_C']],
      at: { tokens: 3 },
    });
    store.getState().back();
    store.getState().back();
    expect(await store.getState().runConsole(sql)).toMatchObject({ kind: 'rows', rows: [['lease_lab_A']], at: { tokens: 1 } });
    // The learner's next move after Back takes the next step of the trace, as without the console.
    await store.getState().step();
    expect(store.getState().position).toBe(2);
    expect(store.getState().schedule).toEqual(['A', 'B', 'C']);
  });

  it('refuses BEGIN without asking the engine', async () => {
    const engine = hangingConsole(new InProcessLabClient(() => db));
    const store = createLabStore({ lab: engine, storage: null });
    await store.getState().start(LINK);
    const before = engine.sent.length;
    expect(await store.getState().runConsole('BEGIN')).toMatchObject({ kind: 'refused' });
    expect(engine.sent.length).toBe(before);
  });

  it('after a runaway statement: Postgres restarted, steps replayed, the same place and selection, and a clear message', async () => {
    const store = createLabStore({ lab: hangingConsole(new InProcessLabClient(() => db)), storage: null });
    await store.getState().start(LINK);
    store.getState().back();
    store.getState().select(0);
    const before = store.getState();
    const outcome = await store.getState().runConsole('SELECT pg_sleep(10)');
    expect(outcome).toMatchObject({ kind: 'stopped' });
    const after = store.getState();
    expect(after.position).toBe(2);
    expect(after.selected).toBe(0);
    expect(after.schedule).toEqual(before.schedule);
    expect(after.steps).toEqual(before.steps);
    expect(after.notices.at(-1)?.title).toBe('Your console statement ran for more than 1.5 s, so the lab stopped it.');
    expect(after.notices.at(-1)?.details[0]).toMatch(/statement_timeout never fires.*spare Postgres.*It replayed your 3 steps: you are where you were/);
    expect(outcome).toMatchObject({ reason: expect.stringContaining('within 1.5 s') });
  });
});
