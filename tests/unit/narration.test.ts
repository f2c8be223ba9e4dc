/**
 * Narration as data (sim/narration.ts): every kind of fact the engine records has its sentence, and what
 * reads a step (a chapter's mark, a question, a test) asks for a fact, so rewording a sentence cannot
 * break it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { runSchedule } from '../../src/engine/run';
import { CHAPTERS, chapterById } from '../../src/lessons/chapters';
import { matchesExpectation } from '../../src/lessons/trace-read';
import type { ChapterId, MarkExpectation } from '../../src/lessons/types';
import { findScenario } from '../../src/scenarios';
import { type EngineFact, type FactPattern, hasFact, narrate, narrateEngine, type StepFact, type StepFactKind } from '../../src/sim/narration';
import type { Trace } from '../../src/sim/types';

const poll = { attempts: 1, maxAttempts: 3, again: true };

/**
 * One fact of every kind and the sentence it is told as. The type lists every kind: a kind added to
 * StepFact without an example here does not compile (and narrate's switch has no default, so neither
 * does one without a sentence).
 */
const EXAMPLES: { [K in StepFactKind]: [Extract<StepFact, { kind: K }>, string] } = {
  waits: [{ kind: 'waits', waiter: { kind: 'worker', worker: 'B' }, holders: ['A'] }, 'B waits: A holds a row lock it needs.'],
  'claim-failed': [
    { kind: 'claim-failed', worker: 'A', code: '55P03', message: 'could not obtain lock', attempts: 3, retry: false },
    "A's claim failed with 55P03: could not obtain lock. A rolls back and gives up after 3 attempts.",
  ],
  'statement-failed': [
    { kind: 'statement-failed', worker: 'A', code: '42P01', message: 'no such table' },
    "A's statement failed with 42P01: no such table. A stops.",
  ],
  'transaction-failed': [
    {
      kind: 'transaction-failed',
      worker: 'B',
      statement: 'UPDATE',
      code: '40001',
      message: 'could not serialize access',
      isolation: 'repeatable-read',
      attempts: 1,
      maxAttempts: 3,
      again: true,
    },
    "B's UPDATE failed with 40001: could not serialize access. Its REPEATABLE READ transaction is aborted and its locks are gone: B rolls back at its next step, then tries again.",
  ],
  'rolled-back': [
    { kind: 'rolled-back', worker: 'B', attempts: 1, maxAttempts: 3, again: true },
    'B rolled back its failed transaction and tries the claim again from BEGIN (attempt 2 of 3).',
  ],
  'found-no-pending': [{ kind: 'found-no-pending', worker: 'A', poll }, 'A found no pending run. It will poll again (attempt 1 of 3).'],
  'claimed-nothing': [
    { kind: 'claimed-nothing', worker: 'B', pendingOnly: true, limitedTo: null, poll: { ...poll, attempts: 3, again: false } },
    'B claimed nothing: no run was pending, or every candidate was locked. After 3 attempts it stops.',
  ],
  'read-pending': [{ kind: 'read-pending', worker: 'A', run: 123 }, 'A read run 123 as pending. It has not claimed it yet.'],
  'selected-in-transaction': [
    { kind: 'selected-in-transaction', worker: 'A', run: 123, locked: true },
    "A's SELECT found run 123 and locked its row; its transaction stays open for the UPDATE, holding the lock.",
  ],
  'holds-for-job': [
    { kind: 'holds-for-job', worker: 'A', run: 123, locked: true },
    "A's SELECT found run 123 and locked its row; its transaction stays open for the whole job, the lock its lease, until its completion commits (a crash rolls it back and frees the row).",
  ],
  'called-model': [
    { kind: 'called-model', worker: 'A', run: 123 },
    'A paid for a model call on run 123; nothing is sent to the database, and its transaction stays open.',
  ],
  'snapshot-taken': [
    { kind: 'snapshot-taken', worker: 'A', isolation: 'serializable' },
    'Its SERIALIZABLE transaction stays open: this SELECT took its snapshot, and every later statement of it reads that snapshot.',
  ],
  'lost-race': [
    { kind: 'lost-race', worker: 'B', run: 123, retry: true },
    "B's compare-and-set matched 0 rows: run 123 was no longer pending, so B lost the race and looks again.",
  ],
  'run-gone': [{ kind: 'run-gone', worker: 'B', run: 123 }, 'B claimed nothing: run 123 is gone. It stops.'],
  claimed: [{ kind: 'claimed', worker: 'B', run: 123, generation: 19 }, 'B now owns run 123 with generation 19.'],
  'took-over': [{ kind: 'took-over', worker: 'B', run: 123, previousOwner: 'A' }, 'It took the run over from A, whose lease had expired.'],
  overwrote: [{ kind: 'overwrote', worker: 'B', run: 123, previousOwner: 'A' }, "It overwrote A's claim, which was still valid."],
  'took-by-name': [
    { kind: 'took-by-name', worker: 'B', run: 123, name: 'host:worker pid:1', leaseLeftSeconds: 14399 },
    "Its claim took the run by name: the row's lease_owner, 'host:worker pid:1', is the name B runs under, so it matched a lease with 14399 s still to run, whoever took it under that name.",
  ],
  'unchecked-update': [{ kind: 'unchecked-update', worker: 'B', run: 123 }, 'The UPDATE did not check that the run was still pending.'],
  'recovery-read': [
    { kind: 'recovery-read', worker: 'B', executor: 'local', runs: [123] },
    "B, the recovery at launch, read run 123 as running under executor 'local' and created no later than the cutoff: to recover. The row cannot say whether that executor is this process, alive.",
  ],
  recovered: [
    { kind: 'recovered', worker: 'B', run: 123, generation: 2, executor: 'local', runs: true, status: 'running' },
    "B wrote run 123 again by its id: executor 'local' re-stamped and a recovery attempt counted (generation 2). The write checks nothing of who runs the run, and B now runs it from the start.",
  ],
  'skipped-active': [
    { kind: 'skipped-active', worker: 'B', run: 123, lane: 'A' },
    "B looked in its process's memory before writing: A is running run 123, so recovery skips it. Nothing is sent to the database.",
  ],
  'holds-row-lock': [{ kind: 'holds-row-lock', worker: 'B', run: 123 }, 'Its transaction is still open, so it holds the row lock until it commits.'],
  committed: [{ kind: 'committed', worker: 'A', run: 123 }, 'A committed its claim of run 123; the row lock is released.'],
  fenced: [
    { kind: 'fenced', worker: 'A', write: 'complete', run: 123, heldGeneration: 18, runGeneration: 19, runOwner: 'B' },
    "A's completion write matched 0 rows: A holds generation 18 but run 123 is at generation 19 (owned by B). The fence rejected the write and A stops.",
  ],
  'write-missed': [
    { kind: 'write-missed', worker: 'A', write: 'heartbeat', run: 123, because: { kind: 'other-owner', owner: 'B' }, fencing: false },
    "A's heartbeat matched 0 rows: run 123's lease_owner is B, not A. Fencing is off; A stops.",
  ],
  'call-wasted': [{ kind: 'call-wasted', worker: 'A', run: 123 }, 'The model call was already paid for.'],
  'lease-renewed': [{ kind: 'lease-renewed', worker: 'A', run: 123 }, 'A renewed its lease on run 123.'],
  'lease-unmoved': [
    { kind: 'lease-unmoved', worker: 'A', run: 123 },
    "A's heartbeat left run 123's lease where it was: this strategy's heartbeat does not move the expiry.",
  ],
  progressed: [{ kind: 'progressed', worker: 'A', run: 123, progress: 2 }, 'A paid for a model call on run 123 and recorded progress 2.'],
  completed: [{ kind: 'completed', worker: 'A', run: 123 }, 'A marked run 123 done.'],
  'completed-as-cancelled': [
    { kind: 'completed-as-cancelled', worker: 'A', run: 123 },
    "A's completion found cancel_requested set: run 123 is cancelled, not done.",
  ],
  'acknowledged-cancel': [{ kind: 'acknowledged-cancel', worker: 'A', run: 123 }, 'A saw the cancel request and marked run 123 cancelled.'],
  'cancel-seen': [{ kind: 'cancel-seen', worker: 'A', run: 123 }, 'It sees cancel_requested and will stop.'],
  'stale-write-committed': [
    { kind: 'stale-write-committed', worker: 'A', run: 123, heldGeneration: 18, runGeneration: 19 },
    "This write committed although A's generation 18 is stale (the run is at 19): split ownership.",
  ],
  'clock-moved': [{ kind: 'clock-moved', fromSeconds: 0, toSeconds: 61 }, 'The clock moved 61 s, from 15:00:00 to 15:01:01.'],
  'lease-expired': [
    { kind: 'lease-expired', leases: [{ run: 123, owner: 'A' }], takenBackBy: 'rescuer' },
    "Run 123's lease (held by A) expired: the row still says running under its old owner, and only the queue's rescuer takes it back, since the claim reads pending runs only.",
  ],
  paused: [
    { kind: 'paused', worker: 'A', plannedAt: 10 },
    'At 15:00:10, as planned, A froze (a long GC pause, a stalled call): it does nothing, but still believes what it believed.',
  ],
  resumed: [{ kind: 'resumed', worker: 'A', plannedAt: null }, 'A woke up and carries on.'],
  'still-believes': [{ kind: 'still-believes', worker: 'A', run: 123, generation: 18 }, 'It still believes it owns run 123 with generation 18.'],
  crashed: [{ kind: 'crashed', worker: 'A', plannedAt: null }, 'A crashed.'],
  restarted: [
    { kind: 'restarted', worker: 'A', life: 2, forgot: 123 },
    "A started again under the same name: a new process and a new session (life 2), with no memory of its last life. Run 123's row still names A as its owner; this life knows nothing of it.",
  ],
  'transaction-rolled-back': [{ kind: 'transaction-rolled-back', worker: 'A' }, 'Its open transaction rolled back and its row lock is gone.'],
  'claim-undone': [
    { kind: 'claim-undone', worker: 'A', run: 123, generation: 18, row: { generation: 17, status: 'pending' } },
    'Its claim of run 123 with generation 18 never happened (the row is back at generation 17, pending): the next claim can take the same generation.',
  ],
  'lease-orphaned': [{ kind: 'lease-orphaned', worker: 'A', run: 123 }, 'Run 123 keeps its lease until it expires; then it is an orphan.'],
  'cancel-requested': [
    { kind: 'cancel-requested', run: 123 },
    'The operator asked for run 123 to stop. The request is stored in the row, so whoever runs it will see it at its next check.',
  ],
  'cancel-missed': [{ kind: 'cancel-missed', run: 123 }, "The operator's cancel of run 123 did not apply."],
  killed: [
    { kind: 'killed', run: 123, worker: 'A' },
    "To cancel run 123 the operator killed A's process. Nothing in the database says the run was cancelled: it still reads running until its lease expires.",
  ],
  'no-rescuer': [
    { kind: 'no-rescuer', queue: 'River' },
    'River has no rescuer of its own here: its claim takes back runs whose lease expired, so there is nothing to run.',
  ],
  'rescuer-stalled': [
    { kind: 'rescuer-stalled', sinceSeconds: 15 },
    'The rescuer is stalled itself (since 15:00:15): it runs no statement, so no stuck run goes back to pending.',
  ],
  'rescuer-read': [
    { kind: 'rescuer-read', runs: [{ run: 123, generation: 18 }] },
    'The rescuer read the stuck runs: 123 (generation 18). It locked nothing; its next steps write them back to pending, one at a time.',
  ],
  rescued: [{ kind: 'rescued', run: 123 }, "The rescuer put run 123 back to pending: any worker's claim can take it again."],
  'rescued-finished-run': [
    { kind: 'rescued-finished-run', run: 123, was: { status: 'done', owner: 'A' } },
    'The rescuer put run 123 back to pending although it was done under A by now: its write matched the run by id alone, and the run will be executed again.',
  ],
  'rescue-missed': [
    { kind: 'rescue-missed', run: 123, was: null },
    "The rescuer's write of run 123 matched no row: the run is gone, no longer the stuck attempt it read, so it is left alone.",
  ],
  'rescue-failed': [{ kind: 'rescue-failed', run: 123 }, "The rescuer's write of run 123 failed."],
  swept: [
    { kind: 'swept', runs: [{ run: 123, owner: 'A' }], marked: 'failed' },
    "The rescuer marked run 123 (A's) failed in one UPDATE, on time alone: nothing asked whether its worker is still running it, and no claim takes it again.",
  ],
  'swept-nothing': [{ kind: 'swept-nothing' }, "The rescuer's UPDATE found no running run whose lease had expired."],
  'sweep-failed': [{ kind: 'sweep-failed' }, "The rescuer's UPDATE failed."],
};

/** One engine fact of every kind, and its words: the same compile-checked table for narrateEngine. */
const ENGINE_EXAMPLES: { [K in EngineFact['kind']]: [Extract<EngineFact, { kind: K }>, string] } = {
  parked: [
    { kind: 'parked', session: 'A', gid: 'lease-lab-A' },
    "PGlite has one session, so the lab parked A's open transaction with PREPARE TRANSACTION 'lease-lab-A': its row lock stays held while other workers run.",
  ],
  probed: [
    { kind: 'probed', code: '55P03', holders: ['A', 'C'] },
    'PGlite never returns from a lock wait, so the lab did not send this statement: it ran the same row test with FOR UPDATE NOWAIT, got 55P03 (lock not available), and will run it when A and C finishes.',
  ],
  'ran-after-wait': [
    { kind: 'ran-after-wait', replay: 'statement', after: { kind: 'commit-prepared', gid: 'lease-lab-B' } },
    "PGlite cannot wait, so the lab ran the statement again once the lock was free. A real server would have resumed the waiting statement instead, re-checking only the row it waited for. On PGlite the parked transaction was committed with COMMIT PREPARED 'lease-lab-B'.",
  ],
  'commit-prepared': [{ kind: 'commit-prepared', gid: 'lease-lab-A' }, "On PGlite the parked transaction was committed with COMMIT PREPARED 'lease-lab-A'."],
  'rollback-prepared': [
    { kind: 'rollback-prepared', gid: 'lease-lab-A' },
    "The dead worker's open transaction rolled back (on PGlite: ROLLBACK PREPARED 'lease-lab-A'), releasing its row lock.",
  ],
};

describe('narrate', () => {
  it.each(Object.entries(ENGINE_EXAMPLES))('tells how the lab made PGlite do it: %s', (_, [fact, words]) => {
    expect(narrateEngine(fact)).toBe(words);
  });

  it.each(Object.entries(EXAMPLES))('tells a %s fact in words', (_, [fact, words]) => {
    expect(narrate([fact])).toBe(words);
  });

  it('tells a completion that deleted its run, and a write that found its run deleted, in words of their own', () => {
    expect(narrate([{ kind: 'completed', worker: 'A', run: 123, deleted: true }])).toBe('A completed run 123 by deleting it: the run is no longer in runs.');
    expect(narrate([{ kind: 'write-missed', worker: 'B', write: 'work', run: 123, because: { kind: 'run-gone' }, fencing: true }])).toBe(
      "B's progress write matched 0 rows: run 123 is gone (a completion deleted it); B stops.",
    );
  });

  it("tells a step's facts in order, one sentence after another", () => {
    const claim = EXAMPLES.claimed[0];
    expect(narrate([claim, EXAMPLES.overwrote[0]])).toBe("B now owns run 123 with generation 19. It overwrote A's claim, which was still valid.");
  });
});

describe('hasFact', () => {
  const facts: StepFact[] = [EXAMPLES['write-missed'][0], EXAMPLES['call-wasted'][0]];

  it('finds a fact by its kind, or by its kind and some of its fields at any depth', () => {
    expect(hasFact(facts, 'call-wasted')).toBe(true);
    expect(hasFact(facts, { kind: 'write-missed', fencing: false })).toBe(true);
    expect(hasFact(facts, { kind: 'write-missed', because: { kind: 'other-owner' } })).toBe(true);
  });

  it('does not find what the step did not record', () => {
    expect(hasFact(facts, 'fenced')).toBe(false);
    expect(hasFact(facts, { kind: 'write-missed', fencing: true })).toBe(false);
    expect(hasFact(facts, { kind: 'write-missed', because: { kind: 'not-running' } })).toBe(false);
  });

  it('takes only kinds and fields that exist: a misspelt one does not compile', () => {
    // @ts-expect-error no fact has this kind
    const misspelt: FactPattern = 'overwritten';
    // @ts-expect-error a write-missed fact has no field `guard`
    const noSuchField: FactPattern = { kind: 'write-missed', guard: true };
    // @ts-expect-error a mark's fact is a FactPattern too
    const mark: MarkExpectation = { actor: 'B', fact: 'overwritten' };
    expect([misspelt, noSuchField, mark]).toHaveLength(3);
  });
});

describe('chapter ids', () => {
  it('are the ids the chapters are defined with: a misspelt one does not compile', () => {
    const known: ChapterId = 'fencing';
    // @ts-expect-error no chapter has this id
    const misspelt: ChapterId = 'fence';
    expect(chapterById(known).id).toBe('fencing');
    expect(misspelt).toBe('fence');
  });
});

describe('a chapter mark resolves by fact, not by wording', () => {
  let db: PGliteLab;
  beforeAll(async () => {
    db = await bootLabDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  /** The same trace told in other words: every note replaced, the facts kept. */
  const reworded = (trace: Trace): Trace => ({ ...trace, steps: trace.steps.map((step) => ({ ...step, note: 'Something happened.' })) });

  it("the race's overwrite is found with every sentence reworded, and another fact at the same step is not", async () => {
    const chapter = chapterById('race');
    const mark = chapter.steps.find((step) => step.id === 'both-claim')!.mark!;
    const scenario = findScenario(chapter.scenarioId!)!;
    const trace = reworded(await runSchedule(db, scenario, chapter.settings!, scenario.script, { onInapplicable: 'skip' }));
    expect(mark.expect).toMatchObject({ fact: 'overwrote' });
    expect(matchesExpectation(trace, mark.tokenIndex, mark.expect)).toBe(true);
    expect(matchesExpectation(trace, mark.tokenIndex, { ...mark.expect, fact: 'took-over' })).toBe(false);
  });

  it('every mark that names a fact holds on its trace with every note reworded', async () => {
    const marks = CHAPTERS.flatMap((chapter) => chapter.steps.flatMap((step) => (step.mark?.expect?.fact ? [{ chapter, step, mark: step.mark }] : [])));
    expect(marks.length).toBeGreaterThanOrEqual(6);
    for (const { chapter, step, mark } of marks) {
      const scenario = findScenario(mark.scenarioId ?? chapter.scenarioId!)!;
      const settings = mark.settings ?? chapter.settings!;
      const trace = reworded(await runSchedule(db, scenario, settings, mark.schedule ?? scenario.script, { onInapplicable: 'skip' }));
      expect(matchesExpectation(trace, mark.tokenIndex, mark.expect), `${chapter.id}/${step.id}`).toBe(true);
    }
  });
});
