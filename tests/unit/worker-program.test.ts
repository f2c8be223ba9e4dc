/**
 * Each worker's program and its instruction pointer, tested against the engine: for every scripted step
 * of every scenario under every strategy, with fencing on and off, the line the card highlights before a
 * worker's step is the statement that step ran, and a worker waiting for a lock marks the statement that
 * waits (the one its resumed step then runs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings, findScenario, SCENARIOS } from '../../src/scenarios';
import type { Settings, WorkerState } from '../../src/sim/types';
import { buildYourSql } from '../../src/store/your-sql';
import { pointerOf, type StatementLine, workerProgram } from '../../src/store/worker-program';
import { STRATEGY_IDS } from '../../src/strategies';
import { runScenario } from '../support/lab';

describe("a worker's program and the line it runs next", () => {
  const cases = SCENARIOS.flatMap((scenario) => STRATEGY_IDS.map((strategy) => ({ id: scenario.id, strategy })));
  it.for(cases)('$id under $strategy: the highlighted line is the statement the engine then runs', async ({ id, strategy }) => {
    const scenario = findScenario(id)!;
    for (const fencing of [true, false]) {
      const waits = await expectPointersFollowEngine(id, { ...defaultSettings(scenario), strategy, fencing }, `${id}/${strategy}/fencing ${fencing}`);
      if (id === 'lock-wait' && strategy === 'for-update') expect(waits).toBeGreaterThan(0);
    }
  });

  // A claim in two statements (SELECT … \gset, then the UPDATE), typed in Your SQL: the pointer moves from the one to the other.
  const twoStatementCases = ['plain', 'for-update', 'skip-locked'].flatMap((name) => ['race', 'three-workers', 'lock-wait'].map((id) => ({ id, name })));
  it.for(twoStatementCases)('$id under the two-statement $name claim: the highlighted line is the statement the engine then runs', async ({ id, name }) => {
    const scenario = findScenario(id)!;
    const claim = readFileSync(join(__dirname, `../fixtures/claims/two-statement-${name}.sql`), 'utf8');
    const built = await buildYourSql({ claim, heartbeat: null, work: null, complete: null });
    if (!built.ok) throw new Error(JSON.stringify(built.problem));
    await expectPointersFollowEngine(id, { ...defaultSettings(scenario), definition: built.definition }, `${id}/two-statement-${name}`);
  });

  it("a recovery lane reads, looks in its process's memory (the fix), writes; once it skipped, its card says its recovery is over", async () => {
    const scenario = findScenario('dbos-pr-493')!;
    const settings = defaultSettings(scenario);
    const program = workerProgram('B', scenario, settings);
    const files = program.flatMap((line) => (line.kind === 'statement' ? [line.file] : []));
    expect(files.slice(0, 3)).toEqual(['dbos-recover-read.sql', 'dbos-recover-skip-active.sql', 'dbos-recover-upsert.sql']);
    expect(await expectPointersFollowEngine('dbos-pr-493', settings, 'dbos-pr-493')).toBe(0);
    const last = (await runScenario('dbos-pr-493', 'script')).steps.at(-1)!;
    const b = last.workers.find((w) => w.id === 'B')!;
    expect(pointerOf(program, b, scenario, settings, last.clockSeconds, last.workers)).toEqual({
      kind: 'ended',
      words: 'done: its recovery left nothing to run',
    });
  });

  it('reads as a program: the claim, then the loop of cancel check, heartbeat, model call and completion', () => {
    const scenario = findScenario('heartbeat')!;
    const program = workerProgram('A', scenario, { ...defaultSettings(scenario), strategy: 'skip-locked', fencing: true });
    const text = program.map((line) => `${'  '.repeat(line.depth)}${line.kind === 'code' ? line.text : `${line.lead ?? ''} ${line.file}`.trim()}`);
    expect(text).toEqual([
      'BEGIN; claim-skip-locked.sql',
      'transaction-commit.sql',
      'until the run is done:',
      '  if cancel seen: cancel-ack-fenced.sql',
      `  if heartbeat due (every ${scenario.heartbeatSeconds} s): heartbeat-fenced.sql`,
      `  if model calls left (${scenario.workSteps} in all): work-fenced.sql`,
      '  else: complete-fenced.sql',
    ]);
    const naive = workerProgram('A', findScenario('race')!, { ...defaultSettings(findScenario('race')!), strategy: 'naive', fencing: false });
    expect(naive.slice(0, 3).map((line) => (line.kind === 'code' ? line.text : line.file))).toEqual([
      'until it holds a run:',
      'naive-select.sql',
      'naive-update.sql',
    ]);
  });
});

/**
 * Plays the scenario's script and checks, before each worker's step, that the line its card highlights is
 * the statement that step ran (a resumed one: the line it waited in). Gives how many steps left a worker waiting.
 */
async function expectPointersFollowEngine(id: string, settings: Settings, label: string): Promise<number> {
  const scenario = findScenario(id)!;
  const trace = await runScenario(id, 'script', settings);
  const programs = new Map(scenario.workers.map((w) => [w.id, workerProgram(w.id, scenario, settings)]));
  const lineAt = (worker: WorkerState, clock: number, lanes: readonly WorkerState[] = []) => {
    const program = programs.get(worker.id)!;
    const pointer = pointerOf(program, worker, scenario, settings, clock, lanes);
    return { pointer, line: pointer.kind === 'ended' ? undefined : (program[pointer.line] as StatementLine | undefined) };
  };
  // The statement each line names: a lab file by its name, one typed in the page by its id.
  const fileOf = (line: StatementLine | undefined) => line?.id;
  let checked = 0;
  let waits = 0;
  for (const step of trace.steps) {
    if (step.sqlId === null || !/^[A-Z]$/.test(step.actor) || step.action === 'crash' || step.action === 'kill') continue;
    const before = trace.steps[step.index - 1];
    const worker = (before?.workers ?? []).find((w) => w.id === step.actor);
    if (!worker) continue;
    const where = `${label} step ${step.index + 1} (${step.token})`;
    const { pointer, line } = lineAt(worker, before!.clockSeconds, before!.workers);
    // A resumed statement is the one the worker was waiting in; any other is the next line.
    expect(pointer.kind, where).toBe(step.resumed ? 'waiting' : 'next');
    expect(line?.kind, where).toBe('statement');
    expect(fileOf(line), where).toBe(step.sqlId);
    expect(
      step.sql?.split('\n').map((l) => l.trim()),
      where,
    ).toContain(line!.firstLine);
    checked += 1;
    // A step that left its worker waiting marks that same statement as the one waiting.
    const after = step.workers.find((w) => w.id === step.actor)!;
    if (after.phase === 'blocked') {
      const waiting = lineAt(after, step.clockSeconds);
      expect(waiting.pointer, where).toMatchObject({ kind: 'waiting', holders: after.blockedOn });
      expect(fileOf(waiting.line), where).toBe(step.sqlId);
      waits += 1;
    }
  }
  expect(checked).toBeGreaterThan(0);
  for (const worker of trace.steps.at(-1)!.workers) {
    const { pointer } = lineAt(worker, trace.steps.at(-1)!.clockSeconds);
    if (worker.phase === 'crashed') expect(pointer).toEqual({ kind: 'ended', words: 'crashed' });
    if (worker.phase === 'done') expect(pointer).toEqual({ kind: 'ended', words: 'done' });
  }
  return waits;
}
