/**
 * The claim strategies are data (src/strategies/<id>/): each definition's statements exist as files, take
 * the parameters of their role's contract and return the columns the worker reads, and every statement
 * that can wait has a NOWAIT probe. These run over every definition, so a new strategy's folder is
 * checked by adding it to the list, with no test of its own needed for these rules.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAPTERS } from '../../src/lessons/chapters';
import { sqlPath } from '../../src/lessons/sql-lines';
import { STRATEGIES, STRATEGY_LABELS } from '../../src/sim/types';
import { statementText } from '../../src/sql/registry';
import {
  ATOMIC_STRATEGY_IDS,
  BUILT_IN_STRATEGIES,
  CANCEL_REQUEST,
  CLAIM_ACTIONS,
  PAGE_STATEMENTS,
  QUEUE_STRATEGY_IDS,
  STRATEGY_TEXTS,
  rescuerStatements,
  workerStatements,
} from '../../src/strategies';
import {
  type LabStatement,
  type ParamName,
  ROLE_CONTRACTS,
  type StatementRole,
  roleParams,
  type StatementText,
  type StrategyDefinition,
} from '../../src/strategies/types';

const root = join(__dirname, '../..');
const strategiesDir = join(root, 'src/strategies');

/** Every statement of a definition with the role it plays and whether it is the fenced variant. */
function statementsByRole(definition: StrategyDefinition): { role: StatementRole; fenced: boolean; statement: LabStatement }[] {
  const claim =
    definition.claim.shape === 'one-statement'
      ? [{ role: 'claim' as const, fenced: true, statement: definition.claim.claim }]
      : [
          { role: 'select' as const, fenced: true, statement: definition.claim.select },
          { role: 'claim-update' as const, fenced: true, statement: definition.claim.update },
        ];
  const writes = (
    [
      ['heartbeat', definition.heartbeat],
      ['work', definition.work],
      ['complete', definition.complete],
      ['cancel-ack', definition.cancelAck],
    ] as const
  ).flatMap(([role, pair]) => [
    { role, fenced: true, statement: pair.fenced },
    { role, fenced: false, statement: pair.unfenced },
  ]);
  return [...claim, ...writes];
}

/** Every text a definition brings: its statements, their probes, and what a resumed claim runs. */
function textsOf(definition: StrategyDefinition): StatementText[] {
  return [...workerStatements(definition), ...rescuerStatements(definition)].flatMap((statement) => [
    statement,
    ...(statement.probe ? [statement.probe] : []),
    ...(statement.afterWait.kind === 'relock-found' ? [statement.afterWait.candidates, statement.afterWait.relock] : []),
  ]);
}

/** The $n a text uses, in ascending order. */
function parametersUsed(text: string): number[] {
  return [...new Set([...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);
}

/** The columns a statement hands back: its RETURNING list, or a SELECT's output list. */
function columnsReturned(text: string): string[] {
  const code = text.replace(/--[^\n]*/g, '');
  const returning = /RETURNING\s+([\s\S]*)$/i.exec(code);
  const list = returning ? returning[1]! : /^\s*SELECT\s+([\s\S]*?)\s+FROM\b/i.exec(code)?.[1];
  if (list === undefined) return [];
  return list.split(',').map((column) =>
    column
      .trim()
      .split(/\s+AS\s+/i)
      .at(-1)!
      .trim(),
  );
}

describe('each built-in strategy', () => {
  it('is a folder of src/strategies with its definition, and every folder is listed', () => {
    const folders = readdirSync(strategiesDir).filter((name) => statSync(join(strategiesDir, name)).isDirectory());
    expect(folders.sort()).toEqual(BUILT_IN_STRATEGIES.map((d) => d.id).sort());
    for (const definition of BUILT_IN_STRATEGIES) expect(existsSync(join(strategiesDir, definition.id, 'definition.ts')), definition.id).toBe(true);
  });

  it('brings statements whose text is its files, and leaves no .sql file in its folder unused', () => {
    for (const definition of BUILT_IN_STRATEGIES) {
      const texts = textsOf(definition);
      for (const text of texts) {
        expect(text.file, text.id).not.toBeNull();
        expect(text.file!.endsWith(`/${text.id}.sql`), `${text.file} is named after ${text.id}`).toBe(true);
        const onDisk = join(root, text.file!);
        expect(existsSync(onDisk), text.file!).toBe(true);
        expect(text.text, text.id).toBe(statementText(readFileSync(onDisk, 'utf8')));
      }
      const own = readdirSync(join(strategiesDir, definition.id)).filter((file) => file.endsWith('.sql'));
      const used = new Set(texts.map((text) => text.file));
      for (const file of own) expect(used.has(`src/strategies/${definition.id}/${file}`), `${definition.id}/${file} is used`).toBe(true);
    }
  });

  it("takes, in each role, the role's parameters in $n order and returns the columns the worker reads", () => {
    for (const definition of BUILT_IN_STRATEGIES) {
      for (const { role, fenced, statement } of statementsByRole(definition)) {
        const where = `${definition.id} ${role}${fenced ? '' : ' (unfenced)'}: ${statement.id}`;
        const contract: readonly ParamName[] = roleParams(role, fenced);
        // A production queue's write may check less than the lab's (pg-boss's touch names no worker): its
        // parameters are then some of the role's, in the role's order. The lab's own take all of them.
        const taken = QUEUE_STRATEGY_IDS.includes(definition.id) ? contract.filter((name) => statement.params.includes(name)) : contract;
        expect(statement.params, where).toEqual(taken);
        expect(parametersUsed(statement.text), where).toEqual(taken.map((_, i) => i + 1));
        expect(columnsReturned(statement.text), where).toEqual(ROLE_CONTRACTS[role].returning);
      }
    }
  });

  it('gives every statement that can wait a NOWAIT probe taking a prefix of its parameters, and none to one that cannot', () => {
    let waiting = 0;
    for (const definition of BUILT_IN_STRATEGIES) {
      for (const statement of [...workerStatements(definition), ...rescuerStatements(definition), CANCEL_REQUEST]) {
        if (statement.afterWait.kind === 'cannot-wait') {
          expect(statement.probe, statement.id).toBeNull();
          continue;
        }
        waiting++;
        expect(statement.probe, statement.id).not.toBeNull();
        const probe = statement.probe!;
        expect(probe.text, probe.id).toMatch(/FOR UPDATE NOWAIT/);
        expect(Math.max(0, ...parametersUsed(probe.text)), probe.id).toBeLessThanOrEqual(statement.params.length);
        if (statement.afterWait.kind === 'relock-found') {
          expect(parametersUsed(statement.afterWait.candidates.text), statement.afterWait.candidates.id).toEqual([]);
          expect(parametersUsed(statement.afterWait.relock.text), statement.afterWait.relock.id).toEqual([1]);
          expect(statement.afterWait.relock.text).toMatch(/FOR UPDATE NOWAIT/);
          expect(columnsReturned(statement.afterWait.relock.text)).toEqual(['run_id', 'qualifies']);
        }
      }
    }
    expect(waiting).toBeGreaterThan(0);
  });

  it('names one text by one id across all strategies (PGlite prepares each id once)', () => {
    const byId = new Map<string, string>();
    for (const text of [...BUILT_IN_STRATEGIES.flatMap(textsOf), CANCEL_REQUEST, CANCEL_REQUEST.probe!]) {
      const seen = byId.get(text.id);
      if (seen !== undefined) expect(text.text, text.id).toBe(seen);
      byId.set(text.id, text.text);
    }
    expect([...STRATEGY_TEXTS.keys()].sort()).toEqual([...byId.keys()].sort());
  });
});

describe('the atomic claims', () => {
  const claimOf = (id: string) => {
    const claim = BUILT_IN_STRATEGIES.find((d) => d.id === id)!.claim;
    if (claim.shape !== 'one-statement') throw new Error(`${id} is not an atomic claim`);
    return claim.claim;
  };

  it('differ only in their locking clause', () => {
    const strip = (id: string) => claimOf(id).text.replace(/FOR UPDATE( SKIP LOCKED| NOWAIT)?/, 'LOCK');
    expect(ATOMIC_STRATEGY_IDS).toEqual(['skip-locked', 'for-update', 'nowait']);
    for (const id of ATOMIC_STRATEGY_IDS) expect(strip(id), id).toBe(strip('skip-locked'));
  });

  it('probe a plain FOR UPDATE claim with the same claim under NOWAIT', () => {
    const forUpdate = claimOf('for-update');
    const code = (text: string) => text.replace(/--[^\n]*\n/g, '');
    expect(code(forUpdate.probe!.text)).toBe(forUpdate.text.replace('FOR UPDATE', 'FOR UPDATE NOWAIT'));
    expect(forUpdate.afterWait.kind).toBe('relock-found');
  });
});

describe("the queues' rescuers as their own process", () => {
  const withRescuer = (BUILT_IN_STRATEGIES as readonly StrategyDefinition[]).filter((d) => d.rescuer);
  const definitionOf = (id: string) => withRescuer.find((d) => d.id === id)!;
  const code = (text: string) => text.replace(/--[^\n]*\n/g, '');

  // pgqueuer, Hangfire.PostgreSql and delayed_job have no such pass: their fetch itself takes back a job whose
  // heartbeat (pgqueuer), fetchedat (Hangfire) or locked_at (delayed_job) is older than the timeout. DBOS has
  // neither: a process recovers its own executor id's work at launch and runs it itself (its recovery lanes).
  const RESCUE_IN_THE_CLAIM: readonly string[] = ['pgqueuer', 'hangfire', 'delayed-job', 'dbos'];

  it('are every production queue but those whose claim rescues: each frees abandoned jobs in a pass apart from its claim', () => {
    expect(withRescuer.map((d) => d.id)).toEqual(QUEUE_STRATEGY_IDS.filter((id) => !RESCUE_IN_THE_CLAIM.includes(id)));
    expect(withRescuer.map((d) => d.id)).not.toContain('skip-locked');
  });

  it.for(withRescuer.map((d) => d.id))("%s: its claim is the queue's claim without the expired-lease clause", (id) => {
    const definition = definitionOf(id);
    if (definition.claim.shape !== 'one-statement') throw new Error(`${id} is not one statement`);
    const folded = code(definition.claim.claim.text).replace(/\n\s*OR \(status = 'running' AND lease_expires_at < now\(\)\)/, '');
    expect(code(definition.rescuer!.claim.text)).toBe(folded);
    expect(definition.rescuer!.claim.params).toEqual(definition.claim.claim.params);
  });

  const readThenWrite = withRescuer.filter((d) => d.rescuer!.shape === 'read-then-write').map((d) => d.id);
  const oneStatement = withRescuer.filter((d) => d.rescuer!.shape === 'one-statement').map((d) => d.id);
  it('River and procrastinate read, then write; graphile-worker, pg-boss, Oban and Solid Queue rescue in one statement', () => {
    expect(readThenWrite).toEqual(['river', 'procrastinate']);
    expect(oneStatement).toEqual(['graphile-worker', 'pg-boss', 'oban', 'solid-queue']);
  });

  it.for(readThenWrite)('%s: reads stuck runs with a plain read, writes one run by $1, the fenced write also by its generation $2', (id) => {
    const rescuer = definitionOf(id).rescuer!;
    if (rescuer.shape !== 'read-then-write') throw new Error(`${id} rescues in one statement`);
    expect(rescuer.fetch.afterWait.kind).toBe('cannot-wait');
    expect(code(rescuer.fetch.text)).not.toMatch(/FOR UPDATE|\$\d/);
    expect(columnsReturned(rescuer.fetch.text)).toEqual(['run_id', 'lease_generation']);
    expect(rescuer.rescue.unfenced.params).toEqual(['run']);
    expect(rescuer.rescue.fenced.params).toEqual(['run', 'generation']);
    expect(rescuer.rescue.fenced.text).toMatch(/AND lease_generation = \$2/);
    for (const write of [rescuer.rescue.unfenced, rescuer.rescue.fenced]) {
      expect(write.afterWait.kind).toBe('recheck-row');
      expect(columnsReturned(write.text)).toEqual(['run_id', 'status']);
      expect(write.text).toMatch(/SET status {11}= 'pending'/);
    }
  });

  it.for(
    oneStatement,
  )('%s: one UPDATE without parameters of every running run past its lease, probed with NOWAIT, refused on PGlite where it would wait', (id) => {
    const rescuer = definitionOf(id).rescuer!;
    if (rescuer.shape !== 'one-statement') throw new Error(`${id} reads first`);
    const sweep = rescuer.sweep;
    expect(sweep.params).toEqual([]);
    expect(code(sweep.text)).not.toMatch(/\$\d|SELECT/);
    expect(code(sweep.text)).toMatch(/WHERE status = 'running'\s+AND lease_expires_at < now\(\)/);
    expect(columnsReturned(sweep.text)).toEqual(['run_id', 'status']);
    // Solid Queue's pruner fails the claims of a dead process; the others put the job back to be claimed again.
    expect(sweep.text).toMatch(id === 'solid-queue' ? /SET status {11}= 'failed'/ : /SET status {11}= 'pending'/);
    expect(sweep.probe?.id).toBe('probe-expired-running');
    expect(sweep.probe?.text).toMatch(/FOR UPDATE NOWAIT/);
    expect(sweep.afterWait.kind).toBe('server-only');
  });

  it("Solid Queue's finalizing writes, fenced, need the claim still there: its generation on a running run", () => {
    const solidQueue = definitionOf('solid-queue');
    for (const write of [solidQueue.complete.fenced, solidQueue.cancelAck.fenced]) {
      expect(code(write.text)).toMatch(/AND lease_generation = \$2\s+AND status = 'running'/);
      expect(code(write.probe!.text)).toMatch(/AND lease_generation = \$2\s+AND status = 'running'\s+FOR UPDATE NOWAIT/);
    }
  });
});

describe('what is derived from the definitions', () => {
  it('the strategy list and the picker labels', () => {
    expect(STRATEGIES).toEqual(BUILT_IN_STRATEGIES.map((d) => d.id));
    for (const definition of BUILT_IN_STRATEGIES) expect(STRATEGY_LABELS[definition.id]).toBe(definition.label);
  });

  it("the statements the live bridge accepts: every worker statement, every queue rescuer's and the operator cancel, and nothing else", () => {
    const expected = new Set([...BUILT_IN_STRATEGIES.flatMap((d) => [...workerStatements(d), ...rescuerStatements(d)]), CANCEL_REQUEST].map((s) => s.id));
    expect(new Set(PAGE_STATEMENTS.keys())).toEqual(expected);
    expect(PAGE_STATEMENTS.has('relock-candidate')).toBe(false);
    expect(PAGE_STATEMENTS.has('probe-cas-claim')).toBe(false);
  });

  it('the claim actions of the trace', () => {
    expect(CLAIM_ACTIONS).toEqual(['claim', 'naive-update', 'cas-claim', 'recover']);
  });

  it("the lessons' captions name the file the statement lives in", () => {
    for (const chapter of CHAPTERS) {
      for (const step of chapter.steps) {
        if (!step.sql || !step.sql.caption.startsWith('src/')) continue;
        expect(step.sql.caption.split(':')[0], step.sql.sqlId).toBe(sqlPath(step.sql.sqlId));
      }
    }
  });
});
