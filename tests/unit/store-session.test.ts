/**
 * The store against the real engine on PGlite, in-process: what a learner's clicks do to the schedule,
 * the trace and the cursor. One database for the whole file; every test starts with its own load.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { describeOutcome } from '../../src/store/derive';
import { createLabStore, type LabStore } from '../../src/store/lab-store';
import { InProcessLabClient } from '../../src/webworker/local-engine';

let db: Promise<LabDatabase>;
beforeAll(() => {
  db = bootLabDatabase();
});

async function lab(fragment = ''): Promise<LabStore> {
  const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null, sleep: async () => {} });
  await store.getState().start(fragment);
  return store;
}

async function steps(store: LabStore, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await store.getState().step();
}

describe('the store on the real engine', () => {
  it('plays the race script with Step and finds the double execution', async () => {
    const store = await lab('#scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await steps(store, 10);
    const state = store.getState();
    expect(state.schedule).toEqual(['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B']);
    expect(state.position).toBe(10);
    const outcome = describeOutcome(state.steps, state.position, state.status?.isOver ? 'over' : null);
    expect(outcome.findings.join(' ')).toContain('Run 123 was executed by both A and B');
    // The findings keep their order as the race goes on: a new one comes last, none swaps places.
    let before: string[] = [];
    for (let position = 1; position <= state.steps.length; position++) {
      const kinds = describeOutcome(state.steps, position, null).findings.map((text) => text.split(':')[0]!);
      expect(kinds.slice(0, before.length)).toEqual(before);
      before = kinds;
    }
    expect(before.length).toBeGreaterThan(1);
  });

  it('exports a trace that names the database the steps ran on: PGlite here, PostgreSQL in live mode', async () => {
    const store = await lab('#scenario=race&strategy=naive&fencing=off&schedule=A,B&step=2');
    expect(store.getState().trace().database).toBe('pglite');
    store.setState({ engineDatabase: { kind: 'live', version: '15.18', where: '127.0.0.1:5432/lab' } });
    expect(store.getState().trace().database).toBe('postgres');
  });

  it('plays the same steps with SKIP LOCKED without a double execution', async () => {
    const store = await lab('#scenario=race&strategy=skip-locked&fencing=off&schedule=&step=0');
    await steps(store, 10);
    const state = store.getState();
    expect(describeOutcome(state.steps, state.position, null).findings).toEqual([]);
  });

  it('Back moves only the cursor; the same move again just reveals it', async () => {
    const store = await lab('#scenario=race&schedule=A,B,A,B');
    const before = store.getState();
    expect(before.position).toBe(4);
    store.getState().back();
    store.getState().back();
    expect(store.getState().position).toBe(2);
    expect(store.getState().steps).toBe(before.steps);
    await store.getState().stepWorker('A');
    expect(store.getState().position).toBe(3);
    expect(store.getState().schedule).toEqual(['A', 'B', 'A', 'B']);
  });

  it('stepping a different worker after Back cuts the schedule there and replays', async () => {
    const store = await lab('#scenario=race&schedule=A,B,A,B');
    store.getState().seek(1);
    await store.getState().stepWorker('A');
    const state = store.getState();
    expect(state.schedule).toEqual(['A', 'A']);
    expect(state.position).toBe(2);
    expect(state.steps[1]?.action).toBe('naive-update');
  });

  it('flipping fencing replays the schedule and skips what no longer applies', async () => {
    const store = await lab('#scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A,A,%2B10,%2B51,B,B,B,%2B40,A,B');
    const fenced = store.getState();
    expect(describeOutcome(fenced.steps, fenced.position, null).findings.join(' ')).toContain("A's write was rejected");
    await store.getState().setFencing(false);
    const unfenced = store.getState();
    expect(unfenced.settings.fencing).toBe(false);
    expect(describeOutcome(unfenced.steps, unfenced.position, null).findings.join(' ')).toContain('split ownership');
    await store.getState().setFencing(true);
    expect(store.getState().schedule).toEqual(fenced.schedule);
  });

  it('a setting changed while another one replays stays as chosen: the earlier replay does not flip it back', async () => {
    const store = await lab('#scenario=race&strategy=naive&fencing=off&schedule=A,B&step=2');
    const strategyChosen = store.getState().chooseStrategy('skip-locked');
    const fencingSet = store.getState().setFencing(true);
    const seen: boolean[] = [];
    const unsubscribe = store.subscribe((state) => seen.push(state.settings.fencing));
    await Promise.all([strategyChosen, fencingSet]);
    unsubscribe();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((on) => !on)).toEqual([]);
    expect(store.getState().settings).toMatchObject({ strategy: 'skip-locked', fencing: true });
    expect(store.getState().traceSettings).toMatchObject({ strategy: 'skip-locked', fencing: true });
  });

  it('says which steps it skipped', async () => {
    const store = await lab('#scenario=race&strategy=naive&schedule=A,B,A,B,A,B,A,B,A,B');
    await store.getState().setFencing(true);
    const notice = store.getState().notices.at(-1);
    expect(notice?.title).toBe('With fencing on, 2 steps of your schedule no longer apply and were skipped.');
    expect(notice?.details[0]).toBe('Step 7 ("A"): A cannot move: A has finished (lost-lease).');
  });

  it('opens the valid part of a link whose step cannot happen', async () => {
    const store = await lab('#scenario=race&schedule=A,resume:A,B&step=3');
    const state = store.getState();
    expect(state.schedule).toEqual(['A']);
    expect(state.position).toBe(1);
    expect(state.notices[0]?.details.join(' ')).toMatch(/Step 2 \("resume:A"\) cannot happen/);
  });

  it('refuses a move that cannot happen, keeping the trace', async () => {
    const store = await lab('#scenario=race&schedule=A,B');
    await store.getState().applyToken('resume:A');
    expect(store.getState().schedule).toEqual(['A', 'B']);
    expect(store.getState().notices.at(-1)?.title).toMatch(/cannot happen now/);
  });

  it('moves the clock to the next lease expiry', async () => {
    const store = await lab('#scenario=crash-orphan&schedule=A,A,A,crash:A');
    await store.getState().advanceToExpiry();
    const state = store.getState();
    expect(state.schedule.at(-1)).toMatch(/^\+\d+$/);
    expect(state.steps.at(-1)?.facts).toMatchObject([{ kind: 'clock-moved' }, { kind: 'lease-expired', leases: [{ run: 123, owner: 'A' }] }]);
  });

  it('plays to the end and stops', async () => {
    const store = await lab('#scenario=race&schedule=');
    store.getState().play();
    await new Promise<void>((resolve) => {
      const stop = store.subscribe((s) => {
        if (!s.playing) {
          stop();
          resolve();
        }
      });
    });
    const state = store.getState();
    expect(state.position).toBe(state.steps.length);
    expect(state.status?.isOver).toBe(true);
  });

  it('Reset empties the schedule', async () => {
    const store = await lab('#scenario=race&schedule=A,B');
    await store.getState().reset();
    expect(store.getState().schedule).toEqual([]);
    expect(store.getState().position).toBe(0);
  });
});
