/**
 * "Your SQL" with the statements' own parameters bound (issue 33 item 6, the page's side of check --param):
 * the link's params= round trip (a link without it byte-identical as before), check's witness links
 * carrying the bindings, a bad binding in a link named once with the rest of the link opened, and the
 * bound values run for real on PGlite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { witnessLink } from '../../src/cli/check';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { findScenario } from '../../src/scenarios';
import { createLabStore } from '../../src/store/lab-store';
import { decodeView, encodeView } from '../../src/store/permalink';
import { buildYourSql, sameTexts, yourSqlTextsOf, type YourSqlTexts } from '../../src/store/your-sql';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { parametersUsed } from '../../src/sql/analyze';
import { bindingRow } from '../../src/store/your-sql-params';
import { PARAMETERS_HIDDEN } from '../support/parameters-hidden';
import { MemoryStorage } from '../support/memory-storage';

const BATCH_FIRST = readFileSync(join(__dirname, '../fixtures/claims/batch-size-first.sql'), 'utf8')
  .split('\n')
  .filter((line) => !line.startsWith('--'))
  .join('\n')
  .trim()
  .replace(/;$/, '');
const PGMQ_ORDER = ['1=1', '2=worker', '3=lease'];

const texts = (claim: string, params?: string[]): YourSqlTexts => ({ claim, heartbeat: null, work: null, complete: null, ...(params ? { params } : {}) });

async function built(source: YourSqlTexts) {
  const result = await buildYourSql(source);
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.definition;
}

describe('params= in a link', () => {
  it('carries the bindings readably after the statements, and reads them back', async () => {
    const definition = await built(texts(BATCH_FIRST, PGMQ_ORDER));
    expect(definition.claim.shape === 'one-statement' && definition.claim.claim.params).toEqual([{ constant: '1' }, 'worker', 'leaseSeconds']);
    const fragment = encodeView({ scenarioId: 'race', settings: { strategy: 'naive', fencing: false, definition }, schedule: ['A', 'B'], position: null });
    expect(fragment).toMatch(/&claim=WITH%20candidate[^&]*&params=1=1,2=worker,3=lease$/);
    const decoded = decodeView(fragment);
    expect(decoded?.problems).toEqual([]);
    expect(decoded?.yourSql).toEqual(texts(BATCH_FIRST, PGMQ_ORDER));
    expect(sameTexts(decoded!.yourSql!, yourSqlTextsOf(definition))).toBe(true);
  });

  it('a statement with no bindings writes the link it always did, and has no params', async () => {
    const claim = BATCH_FIRST.replace('LIMIT $1', 'LIMIT 1').replace('$2', '$1').replace('$3', '$2');
    const definition = await built(texts(claim));
    expect(yourSqlTextsOf(definition)).toEqual(texts(claim));
    const fragment = encodeView({ scenarioId: 'race', settings: { strategy: 'naive', fencing: false, definition }, schedule: ['A'], position: null });
    expect(fragment).toBe(`scenario=race&strategy=your-sql&fencing=off&schedule=A&claim=${encodeURIComponent(claim)}`);
    expect(decodeView(fragment)?.yourSql).toEqual(texts(claim));
  });

  it('a quoted value with a comma, a percent sign and a quote survives the round trip', async () => {
    const complete = 'UPDATE runs SET status = $2 WHERE run_id = $1 RETURNING status, result';
    const params = ["complete:2='done, 100% isn''t'", 'complete:1=run'];
    const fragment = encodeView({
      scenarioId: 'race',
      settings: { strategy: 'naive', fencing: false, definition: await built({ ...texts(BATCH_FIRST, [...PGMQ_ORDER, ...params]), complete }) },
      schedule: [],
      position: null,
    });
    const decoded = decodeView(fragment);
    expect(decoded?.problems).toEqual([]);
    expect(sameTexts(decoded!.yourSql!, { ...texts(BATCH_FIRST, [...PGMQ_ORDER, ...params]), complete })).toBe(true);
  });

  it("check's witness link carries --param's bindings", async () => {
    const definition = await built(texts(BATCH_FIRST, PGMQ_ORDER));
    const link = witnessLink(findScenario('race')!, { strategy: 'naive', fencing: false, definition }, ['A', 'B'], PGMQ_ORDER);
    expect(link).toMatch(/&params=1=1,2=worker,3=lease$/);
    expect(decodeView(link)?.yourSql).toEqual(texts(BATCH_FIRST, PGMQ_ORDER));
  });

  it("check's witness link leaves out a reaper's bindings when it carries no reaper", async () => {
    const definition = await built(texts(BATCH_FIRST, PGMQ_ORDER));
    const link = witnessLink(findScenario('race')!, { strategy: 'naive', fencing: false, definition }, ['A', 'B'], [...PGMQ_ORDER, "reaper:1='30 seconds'"]);
    expect(link).toMatch(/&params=1=1,2=worker,3=lease$/);
  });

  it("a reaper's binding with no reaper to bind is named in one line, not played", async () => {
    expect(await buildYourSql(texts(BATCH_FIRST, [...PGMQ_ORDER, "reaper:1='a b'"]))).toEqual({
      ok: false,
      problem: {
        role: null,
        kind: 'invalid',
        message: `$1 = 'a b': there is no reaper of your own to bind`,
      },
    });
  });

  it('bindings it cannot read: one message, and the statements and the rest of the link still open', () => {
    const decoded = decodeView(`#scenario=race&fencing=off&schedule=A,B&claim=${encodeURIComponent(BATCH_FIRST)}&params=1=1,worker`);
    expect(decoded?.problems).toEqual([
      `The link's parameters (params=) could not be read at "worker": each is N=VALUE, comma-separated (e.g. params=1=1,2=worker,3=lease). The lab left them out.`,
    ]);
    expect(decoded?.yourSql).toEqual(texts(BATCH_FIRST));
    expect(decoded?.view).toMatchObject({ scenarioId: 'race', schedule: ['A', 'B'] });
  });
});

let db: Promise<LabDatabase>;
beforeAll(() => {
  db = bootLabDatabase();
});

describe("the editor's Parameters row", () => {
  it("binds a statement's values in place of its old ones, keeps the others, and the draft keeps them over a reload", () => {
    const storage = new MemoryStorage();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    store.getState().openYourSql();
    store.getState().editYourSql('claim', BATCH_FIRST);
    store.getState().bindYourSql('complete', ['complete:1=run']);
    store.getState().bindYourSql('claim', PGMQ_ORDER);
    store.getState().bindYourSql('claim', ['1=2', '2=worker', '3=lease']);
    expect(store.getState().yourSql.draft?.params).toEqual(['complete:1=run', '1=2', '2=worker', '3=lease']);
    const again = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    again.getState().openYourSql();
    expect(again.getState().yourSql.draft).toEqual(texts(BATCH_FIRST, ['complete:1=run', '1=2', '2=worker', '3=lease']));
    // Unbound again: no params at all, as a draft that never had any.
    again.getState().bindYourSql('claim', []);
    again.getState().bindYourSql('complete', []);
    expect(again.getState().yourSql.draft).toEqual(texts(BATCH_FIRST));
  });

  it("a malformed binding of a statement (a saved draft's `complete:1`) is that statement's: refused under it, and its row's values replace it", async () => {
    const storage = new MemoryStorage();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    store.getState().openYourSql();
    store.getState().editYourSql('claim', BATCH_FIRST);
    store.getState().bindYourSql('claim', PGMQ_ORDER);
    store.getState().editYourSql('complete', "UPDATE runs SET status = 'succeeded' WHERE run_id = $1 RETURNING status, result");
    const malformed = { ...store.getState().yourSql.draft!, params: [...PGMQ_ORDER, 'complete:1'] };
    expect(await buildYourSql(malformed)).toMatchObject({ ok: false, problem: { role: 'complete', message: 'parameter complete:1: not of the form N=VALUE' } });
    store.setState({ yourSql: { ...store.getState().yourSql, draft: malformed } });
    store.getState().bindYourSql('complete', ['complete:1=run']);
    expect(store.getState().yourSql.draft?.params).toEqual([...PGMQ_ORDER, 'complete:1=run']);
  });
});

describe('what the Parameters row shows is what Apply runs', () => {
  it("a row left as offered binds its values on Apply, and a $n left empty is named in the row's terms", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    store.getState().openYourSql();
    store.getState().editYourSql('claim', BATCH_FIRST);
    expect(await store.getState().applyYourSql()).toBe(false);
    const { draft, problem } = store.getState().yourSql;
    expect(draft?.params).toEqual(['1=worker', '2=lease']);
    expect(problem).toEqual({ role: 'claim', kind: 'invalid', message: 'it uses $3, which is given no value ($3 = …)' });
  });

  it('bound to its contract\'s own values, a statement plays as one bound to nothing: applied, not "apply to play these edits"', async () => {
    const claim = BATCH_FIRST.replace('LIMIT $1', 'LIMIT 1').replace('$2', '$1').replace('$3', '$2');
    const draft = texts(claim, ['2=lease', '1=worker']);
    const definition = await built(draft);
    expect(yourSqlTextsOf(definition)).toEqual(texts(claim));
    expect(sameTexts(yourSqlTextsOf(definition), draft)).toBe(true);
    expect(sameTexts(yourSqlTextsOf(definition), texts(claim, ['1=worker', '2=1']))).toBe(false);
  });

  it("a $n PostgreSQL's lexer reads as no parameter shows no row (the parser agrees)", async () => {
    for (const [, text] of PARAMETERS_HIDDEN) {
      expect(bindingRow('claim', text, [])).toBeNull();
      expect(await parametersUsed(text)).toEqual([1]);
    }
    expect(bindingRow('claim', BATCH_FIRST, [])?.positions).toEqual([1, 2, 3]);
  });
});

describe('bound values on the real engine', () => {
  it('the claim runs with them: LIMIT $1 gets 1, $2 the worker, $3 the lease', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start(`#scenario=race&fencing=off&schedule=A,B&claim=${encodeURIComponent(BATCH_FIRST)}&params=1=1,2=worker,3=lease`);
    const state = store.getState();
    expect(state.notices).toEqual([]);
    expect(state.steps[0]).toMatchObject({ sqlId: 'your-claim', sql: BATCH_FIRST, params: ['1', 'A', 60] });
  });

  it("a value the rules refuse: the notice says so in the Parameters row's terms, the scenario opens with its own strategy", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start(`#scenario=race&fencing=off&schedule=A,B&claim=${encodeURIComponent(BATCH_FIRST)}&params=1=1,2=worker,3=lease2`);
    const state = store.getState();
    expect(state.settings.definition).toBeUndefined();
    expect(state.scenarioId).toBe('race');
    const notice = state.notices.at(-1)!;
    expect([notice.title, ...notice.details].join(' ')).toContain(
      `the claim: $3 = lease2: unknown name "lease2"; the claim's names are worker and lease (or a number, or text in single quotes: $3 = 'lease2')`,
    );
    expect(state.yourSql.draft).toEqual(texts(BATCH_FIRST, ['1=1', '2=worker', '3=lease2']));
  });
});
