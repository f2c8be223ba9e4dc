/**
 * The command line's PGlite lives in a worker thread (src/cli/pglite-thread.ts), and its port answers
 * runs() and locks() from a copy of what the thread's database keeps in memory, without a round trip.
 * That copy must never be stale: played in lockstep with a PGlite database in this thread, every call
 * answers the same, and after every call the reads through the thread equal the reads here (which
 * pglite-lab-reads.test.ts holds to a fresh read from Postgres).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteThread } from '../../src/cli/pglite-thread';
import type { PGliteLab } from '../../src/db/pglite-lab';
import type { LabDatabase, SessionId, StatementRequest } from '../../src/db/port';
import { seededSchedules } from '../../src/engine/enumerate';
import { findScenario } from '../../src/scenarios';
import type { Strategy } from '../../src/sim/types';
import { labDatabase } from '../support/lab';

/** The thread's port and the lab here, called alike; the engine sees the thread's answers. */
class Lockstep implements LabDatabase {
  readonly kind = 'pglite' as const;
  checks = 0;

  constructor(
    private readonly thread: LabDatabase,
    private readonly here: PGliteLab,
  ) {}

  reset(seedJson: string, sessions: SessionId[]) {
    return this.both((db) => db.reset(seedJson, sessions));
  }
  execute(session: SessionId, request: StatementRequest) {
    return this.both((db) => db.execute(session, request));
  }
  executeClaim(session: SessionId, request: StatementRequest) {
    return this.both((db) => db.executeClaim(session, request));
  }
  retryBlocked(session: SessionId) {
    return this.both((db) => db.retryBlocked(session));
  }
  commit(session: SessionId) {
    return this.both((db) => db.commit(session));
  }
  crash(session: SessionId) {
    return this.both((db) => db.crash(session));
  }
  runs() {
    return this.thread.runs();
  }
  locks() {
    return this.thread.locks();
  }
  takeEngineFact() {
    const fact = this.thread.takeEngineFact();
    expect(fact).toEqual(this.here.takeEngineFact());
    return fact;
  }
  close() {
    return Promise.resolve();
  }

  private async both<T>(call: (db: LabDatabase) => Promise<T>): Promise<T> {
    const answer = await call(this.thread);
    expect(answer).toEqual(await call(this.here));
    expect(await this.thread.runs()).toEqual(await this.here.runs());
    expect(await this.thread.locks()).toEqual(await this.here.locks());
    this.checks += 1;
    return answer;
  }
}

/** Claims that park, wait (FOR UPDATE, a waiting UPDATE), fail at once (NOWAIT) or find nothing; crashes, pauses, cancels. */
const SCENARIO_IDS = ['race', 'lock-wait', 'crash-orphan', 'paused-worker', 'cancel-durable'];
const STRATEGY_IDS: Strategy[] = ['naive', 'cas', 'skip-locked', 'for-update', 'nowait'];

describe('the PGlite thread’s reads', () => {
  let thread: LabDatabase | null = null;
  afterAll(() => thread?.close());

  it('equal the same database’s in this thread after every call, in random schedules', async () => {
    thread = await openPgliteThread(60);
    const lockstep = new Lockstep(thread, await labDatabase());
    for (const id of SCENARIO_IDS) {
      const scenario = findScenario(id);
      if (!scenario) throw new Error(`no scenario ${id}`);
      for (const [i, strategy] of STRATEGY_IDS.entries()) {
        await seededSchedules(lockstep, scenario, { strategy, fencing: i % 2 === 1 }, 1, 11 + i);
      }
    }
    expect(lockstep.checks).toBeGreaterThan(SCENARIO_IDS.length * STRATEGY_IDS.length * 4);
  });
});
