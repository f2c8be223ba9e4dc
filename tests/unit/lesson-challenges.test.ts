/**
 * Every challenge against the real engine on PGlite: its solution wins it, and the schedules a learner
 * gets without thinking do not: the scenario's own script and every prefix of it (pressing Step), one
 * worker moving alone, and the workers taking turns until nobody can move. Then the wrong turns each
 * challenge names: the condition it states, and nothing near it, is what wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { runSchedule } from '../../src/engine/run';
import { Simulation } from '../../src/engine/simulation';
import { CHALLENGES, findChallenge } from '../../src/lessons/challenges';
import { parseProgress } from '../../src/lessons/progress';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { ScheduleError } from '../../src/sim/schedule';
import type { Scenario, Settings, Trace } from '../../src/sim/types';

let db: PGliteLab;
const cache = new Map<string, Promise<Trace>>();

/** Runs one at a time: the lab's database is one set of sessions. */
let queue: Promise<unknown> = Promise.resolve();
function play(scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<Trace> {
  const key = JSON.stringify([scenario.id, settings, schedule]);
  let trace = cache.get(key);
  if (!trace) {
    trace = queue.then(() => runSchedule(db, scenario, settings, schedule, { onInapplicable: 'error' }));
    queue = trace.catch(() => undefined);
    cache.set(key, trace);
  }
  return trace;
}

/** Plays `next()` until it returns null or nothing applies; tokens that cannot apply are skipped. */
async function playWhile(scenario: Scenario, settings: Settings, next: (turn: number) => string | null, limit = 60): Promise<Trace> {
  const run = queue.then(async () => {
    const sim = new Simulation(db, scenario, settings);
    await sim.reset();
    let stuck = 0;
    for (let turn = 0; turn < limit && stuck < scenario.workers.length; turn++) {
      const token = next(turn);
      if (token === null) break;
      try {
        await sim.apply(token);
        stuck = 0;
      } catch (error) {
        if (!(error instanceof ScheduleError)) throw error;
        stuck++;
      }
    }
    return sim.trace();
  });
  queue = run.catch(() => undefined);
  return run;
}

const scenarioOf = (id: string) => findScenario(findChallenge(id)!.scenarioId)!;

beforeAll(async () => {
  db = await bootLabDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe('every challenge', () => {
  it('there are at least twelve, with distinct ids, three hints each and a scenario that exists', () => {
    expect(CHALLENGES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(CHALLENGES.map((c) => c.id)).size).toBe(CHALLENGES.length);
    for (const challenge of CHALLENGES) {
      expect(findScenario(challenge.scenarioId), challenge.id).toBeDefined();
      expect(new Set(challenge.hints).size, challenge.id).toBe(3);
    }
  });

  it.each(CHALLENGES.map((c) => [c.id, c] as const))('%s: its solution wins it', async (_, challenge) => {
    const trace = await play(scenarioOf(challenge.id), challenge.settings, challenge.solution);
    const judgement = challenge.judge(trace);
    expect(judgement.won, judgement.message).toBe(true);
    expect(judgement.steps.length).toBeGreaterThan(0);
    expect(judgement.steps.every((index) => index >= 0 && index < trace.steps.length)).toBe(true);
  });

  it.each(
    CHALLENGES.map((c) => [c.id, c] as const),
  )('%s: not won by the script, any prefix of it, one worker alone, or workers taking turns', async (_, challenge) => {
    const scenario = scenarioOf(challenge.id);
    const workers = scenario.workers.map((w) => w.id);
    const naive: [string, Trace][] = [];
    for (let length = 0; length <= scenario.script.length; length++) {
      const prefix = scenario.script.slice(0, length);
      naive.push([`script prefix ${prefix.join(',') || '(empty)'}`, await play(scenario, challenge.settings, prefix)]);
    }
    for (const alone of workers) naive.push([`${alone} alone`, await playWhile(scenario, challenge.settings, () => alone)]);
    naive.push(['taking turns', await playWhile(scenario, challenge.settings, (turn) => workers[turn % workers.length]!)]);
    for (const [what, trace] of naive) {
      const judgement = challenge.judge(trace);
      expect(judgement.won, `${what} (${trace.schedule.join(',')}): ${judgement.message}`).toBe(false);
      expect(judgement.message.length).toBeGreaterThan(0);
    }
  });

  it.each(CHALLENGES.map((c) => [c.id, c] as const))('%s: no run yet is not won, and says what to do', (_, challenge) => {
    expect(challenge.judge(null)).toMatchObject({ won: false, message: expect.stringMatching(/judges your run after every step/) });
  });

  it.each(CHALLENGES.map((c) => [c.id, c] as const))('%s: a run of another scenario is not won, and says where to play', async (_, challenge) => {
    const other = SCENARIOS.find((scenario) => scenario.id !== challenge.scenarioId && scenario.id !== 'cancel-kill')!;
    const judgement = challenge.judge(await play(other, challenge.settings, other.script.slice(0, 2)));
    expect(judgement).toMatchObject({ won: false, message: expect.stringMatching(/another scenario/) });
  });
});

describe('each challenge is won on exactly its condition', () => {
  it('double-run: a duplicate of run 123 (the race everyone finds first) does not count', async () => {
    const challenge = findChallenge('double-run')!;
    const first = challenge.judge(await play(scenarioOf('double-run'), challenge.settings, ['A', 'B', 'A', 'B', 'A', 'B']));
    expect(first.won).toBe(false);
    expect(first.message).toMatch(/run 123 executed twice|Run 123 was executed/);
    // Run 124 twice, but only after run 123 was executed twice as well.
    const both = challenge.judge(await play(scenarioOf('double-run'), challenge.settings, ['A', 'B', 'A', 'B', 'C', 'A', 'B', 'C', 'C']));
    expect(both.won).toBe(false);
    const cas = challenge.judge(await play(scenarioOf('double-run'), { strategy: 'cas', fencing: false }, challenge.solution));
    expect(cas.won).toBe(false);
    expect(cas.message).toMatch(/naive/);
  });

  it('atomic-race: claims that only overlap do not win; B first does not win; a clock move does not win', async () => {
    const challenge = findChallenge('atomic-race')!;
    const race = scenarioOf('atomic-race');
    const overlap = challenge.judge(await play(race, challenge.settings, ['A', 'B', 'B', 'B']));
    expect(overlap.won).toBe(false);
    expect(overlap.message).toMatch(/still held run 123|has claimed run 123 and B has not/);
    const bFirst = challenge.judge(await play(race, challenge.settings, ['B', 'B', 'B']));
    expect(bFirst).toMatchObject({ won: false, message: expect.stringMatching(/before A did/) });
    const clock = await play(race, challenge.settings, ['A', 'A', 'A', '+61', 'B', 'B', 'B']);
    expect(challenge.judge(clock)).toMatchObject({ won: false, message: expect.stringMatching(/moves the clock/) });
    // Under every atomic claim the crash wins it: the rollback frees the run, whatever the lock mode.
    for (const strategy of ['for-update', 'nowait'] as const) {
      expect(challenge.judge(await play(race, { strategy, fencing: true }, challenge.solution)).won, strategy).toBe(true);
    }
  });

  it('atomic-duplicate: the same lease expiry wins it; it needs fencing on and an atomic claim', async () => {
    const challenge = findChallenge('atomic-duplicate')!;
    const off = challenge.judge(await play(scenarioOf('atomic-duplicate'), { ...challenge.settings, fencing: false }, challenge.solution));
    expect(off).toMatchObject({ won: false, message: expect.stringMatching(/fencing on/) });
    const naive = challenge.judge(await play(scenarioOf('atomic-duplicate'), { strategy: 'naive', fencing: true }, ['A', 'B', 'A', 'B', 'A', 'B']));
    expect(naive).toMatchObject({ won: false, message: expect.stringMatching(/atomic claim/) });
  });

  it('split-ownership: not with fencing on, and not with a pause or crash', async () => {
    const challenge = findChallenge('split-ownership')!;
    const fenced = challenge.judge(await play(scenarioOf('split-ownership'), { ...challenge.settings, fencing: true }, challenge.solution));
    expect(fenced.won).toBe(false);
    expect(fenced.message).toMatch(/Fencing is on/);
    const paused = challenge.judge(await play(scenarioOf('split-ownership'), challenge.settings, ['A', 'A', 'A', 'pause:A', '+61', 'B', 'B', 'resume:A', 'A']));
    expect(paused).toMatchObject({ won: false, message: expect.stringMatching(/pause:A/) });
  });

  it('sticky-cancel: a kill instead of a stored cancel loses', async () => {
    const challenge = findChallenge('sticky-cancel')!;
    const kill = findScenario('cancel-kill')!;
    expect(challenge.judge(await play(kill, challenge.settings, kill.script)).won).toBe(false);
  });

  it('late-cancel: a cancel A sees is not lost; a kill does not count', async () => {
    const challenge = findChallenge('late-cancel')!;
    const seen = challenge.judge(await play(scenarioOf('late-cancel'), challenge.settings, ['A', 'A', 'A', 'A', 'cancel:123', 'A', 'A']));
    expect(seen).toMatchObject({ won: false, message: expect.stringMatching(/the cancel won/) });
    const killed = challenge.judge(await play(scenarioOf('late-cancel'), challenge.settings, ['A', 'A', 'A', 'kill:123', '+61', 'B', 'B', 'B', 'B', 'B', 'B']));
    expect(killed.won).toBe(false);
  });

  it('long-wait: 29 s is not 30 s, and the claims that do not wait cannot play it', async () => {
    const challenge = findChallenge('long-wait')!;
    const short = challenge.judge(await play(scenarioOf('long-wait'), challenge.settings, ['A', 'B', '+29']));
    expect(short).toMatchObject({ won: false, message: expect.stringMatching(/waited 29 s/) });
    const skip = challenge.judge(await play(scenarioOf('long-wait'), { strategy: 'skip-locked', fencing: true }, challenge.solution));
    expect(skip).toMatchObject({ won: false, message: expect.stringMatching(/FOR UPDATE/) });
  });

  it('stranded: B looking while the lease is valid does not count, and an atomic claim cannot play it', async () => {
    const challenge = findChallenge('stranded')!;
    const early = challenge.judge(await play(scenarioOf('stranded'), challenge.settings, ['A', 'A', 'crash:A', '+30', 'B']));
    expect(early).toMatchObject({ won: false, message: expect.stringMatching(/still valid/) });
    const atomic = challenge.judge(await play(scenarioOf('stranded'), { strategy: 'skip-locked', fencing: true }, ['A', 'A', 'crash:A', '+61', 'B']));
    expect(atomic).toMatchObject({ won: false, message: expect.stringMatching(/expired leases/) });
    // The naive claim strands the run the same way.
    expect(challenge.judge(await play(scenarioOf('stranded'), { strategy: 'naive', fencing: false }, challenge.solution)).won).toBe(true);
  });

  it('free-stuck: B claiming run 123 before A ever had it does not count', async () => {
    const challenge = findChallenge('free-stuck')!;
    const bFirst = challenge.judge(await play(scenarioOf('free-stuck'), challenge.settings, ['B', 'B']));
    expect(bFirst).toMatchObject({ won: false, message: expect.stringMatching(/before A ever had it/) });
  });

  it('lucky-naive: one worker finishing everything does not count', async () => {
    const challenge = findChallenge('lucky-naive')!;
    const solo = challenge.judge(await playWhile(scenarioOf('lucky-naive'), challenge.settings, () => 'A'));
    expect(solo.won).toBe(false);
  });

  it('nowait-gives-up: a worker that fails and then gets run 124 has not given up', async () => {
    const challenge = findChallenge('nowait-gives-up')!;
    const twice = challenge.judge(await play(scenarioOf('nowait-gives-up'), challenge.settings, ['A', 'B', 'B', 'A', 'B']));
    expect(twice.won).toBe(false);
  });

  it('lost-lease: a rejected heartbeat after a pause does not count', async () => {
    const challenge = findChallenge('lost-lease')!;
    const paused = challenge.judge(await play(scenarioOf('lost-lease'), challenge.settings, ['A', 'A', 'A', 'pause:A', '+61', 'B', 'B', 'resume:A', 'A']));
    expect(paused).toMatchObject({ won: false, message: expect.stringMatching(/pause:A/) });
  });

  it('tenant-cap-race: claims one after the other keep the cap (B takes beta’s run); the overlap wins; other claims cannot play it', async () => {
    const challenge = findChallenge('tenant-cap-race')!;
    const scenario = scenarioOf('tenant-cap-race');
    // Serial claims once run 120's lease is out: A's committed claim counts, so B passes over acme.
    const serial = challenge.judge(await play(scenario, challenge.settings, ['+31', 'A', 'A', 'B', 'B']));
    expect(serial).toMatchObject({ won: false, message: expect.stringMatching(/B took beta's run 124 at step 4/) });
    // Overlapping claims while run 120's lease holds acme at its cap: A takes beta's run instead.
    const early = challenge.judge(await play(scenario, challenge.settings, ['A', 'B', 'A']));
    expect(early).toMatchObject({ won: false, message: expect.stringMatching(/A took beta's run 124/) });
    // One acme claim open is not yet two runs at once.
    expect(challenge.judge(await play(scenario, challenge.settings, ['+31', 'A', 'B', 'A'])).won).toBe(false);
    const won = challenge.judge(await play(scenario, challenge.settings, challenge.solution));
    expect(won.message).toMatch(/B's claim at step 3 counted acme's running runs while A's claim of run 120 \(step 2\) had not committed/);
    // Without the cap in the claim, acme's backlog takes both workers with no race at all; the level is about the cap.
    const uncapped = challenge.judge(await play(scenario, { strategy: 'skip-locked', fencing: true }, ['A', 'A', 'B', 'B']));
    expect(uncapped).toMatchObject({ won: false, message: expect.stringMatching(/per-tenant cap counted inside the claim/) });
  });
});

describe('saved progress from before the puzzles', () => {
  it('reads every challenge a learner won or took hints on in the first five, under the same ids', () => {
    const saved = JSON.stringify({
      version: 1,
      chapters: {},
      quiz: {},
      predictions: {},
      challenges: {
        'double-run': { won: true, wonAt: 1700000000000, hints: 3 },
        'atomic-race': { won: true, wonAt: 1700000001000, hints: 0 },
        'split-ownership': { won: false, wonAt: null, hints: 2 },
        'sticky-cancel': { won: true, wonAt: 1700000002000, hints: 1 },
        'free-stuck': { won: false, wonAt: null, hints: 1 },
      },
      currentChapter: null,
    });
    const parsed = parseProgress(saved);
    // Format 1 is carried over to today's (which keeps first answers), with a notice that says so.
    expect(parsed.notice?.kind).toBe('migrated');
    expect(parsed.progress.challenges).toEqual({
      'double-run': { won: true, wonAt: 1700000000000, hints: 3 },
      'atomic-race': { won: true, wonAt: 1700000001000, hints: 0 },
      'split-ownership': { won: false, wonAt: null, hints: 2 },
      'sticky-cancel': { won: true, wonAt: 1700000002000, hints: 1 },
      'free-stuck': { won: false, wonAt: null, hints: 1 },
    });
  });
});
