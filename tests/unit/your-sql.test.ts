/**
 * "Your SQL" outside the browser: the link codec (round trip, the CLI's claim= links, bounded size, hostile
 * values), the saved draft (versioned, damaged, newer), and the real store and engine (PGlite in Node)
 * opening links with statements in them: played when the analyzer accepts them, refused with the reason
 * otherwise, and never at the cost of the learner's saved place or lesson progress.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardCustomClaim, yourSqlRefusalOf } from '../../src/db/custom-claim-guard';
import { CUSTOM_CLAIM_IDS } from '../../src/strategies/custom';
import { runSchedule } from '../../src/engine/run';
import { witnessLink } from '../../src/cli/check';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { findScenario } from '../../src/scenarios';
import type { LabDatabase } from '../../src/db/port';
import { PROGRESS_STORAGE_KEY } from '../../src/lessons/progress';
import { createLabStore } from '../../src/store/lab-store';
import { decodeView, encodeView } from '../../src/store/permalink';
import { loadPlace, PLACE_KEY } from '../../src/store/persist';
import { buildYourSql, sameTexts, yourSqlTextsOf, type YourSqlTexts } from '../../src/store/your-sql';
import { DRAFT_KEY, loadDraft, saveDraft } from '../../src/store/your-sql-draft';
import { MAX_YOUR_SQL_LINK_CHARS, tooLongForLink } from '../../src/store/your-sql-link';
import { prefill } from '../../src/store/your-sql-slice';
import { pointerOf, workerProgram } from '../../src/store/worker-program';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { MemoryStorage } from '../support/memory-storage';

const corpus = (name: string) =>
  readFileSync(join(__dirname, '../ground-truth/claim-corpus', `${name}.sql`), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .trim()
    // As the engine runs a statement (and a link carries it): without the final ";".
    .replace(/;$/, '');

const NO_BUMP = corpus('12-reclaim-without-generation-bump');
const FOR_SHARE = corpus('05-for-share');
const COMPLETE_BY_ID = corpus('32-complete-by-id-only');

const texts = (claim: string, writes: Partial<Omit<YourSqlTexts, 'claim'>> = {}): YourSqlTexts => ({
  claim,
  heartbeat: null,
  work: null,
  complete: null,
  ...writes,
});

describe('the link codec', () => {
  it('carries the statements, exactly, and reads them back', async () => {
    const built = await buildYourSql(texts(NO_BUMP, { complete: COMPLETE_BY_ID }));
    if (!built.ok) throw new Error(JSON.stringify(built.problem));
    const fragment = encodeView({
      scenarioId: 'paused-worker',
      settings: { strategy: 'skip-locked', fencing: true, definition: built.definition },
      schedule: ['A', 'A'],
      position: 2,
    });
    expect(fragment).toMatch(/^scenario=paused-worker&strategy=your-sql&fencing=on&schedule=A,A&step=2&claim=WITH%20candidate/);
    expect(fragment).toContain('&complete=UPDATE%20runs');
    expect(fragment).not.toContain('heartbeat=');
    const decoded = decodeView(fragment);
    expect(decoded?.problems).toEqual([]);
    expect(decoded?.yourSql).toEqual(yourSqlTextsOf(built.definition));
    expect(decoded?.yourSql).toEqual(texts(NO_BUMP, { complete: COMPLETE_BY_ID }));
    // The built-in strategy stands in until the statements are built.
    expect(decoded?.view.settings).toEqual({ strategy: 'skip-locked', fencing: true });
  });

  it("opens the CLI check's links, which carry claim= and no strategy", () => {
    const decoded = decodeView(`#scenario=race&fencing=off&schedule=A,B&claim=${encodeURIComponent(FOR_SHARE)}`);
    expect(decoded?.problems).toEqual([]);
    expect(decoded?.yourSql?.claim).toBe(FOR_SHARE);
  });

  it("opens the CLI check's witness links with their writes, as the check played them", async () => {
    const built = await buildYourSql(texts(NO_BUMP, { complete: COMPLETE_BY_ID }));
    if (!built.ok) throw new Error(JSON.stringify(built.problem));
    const scenario = findScenario('paused-worker')!;
    const link = witnessLink(scenario, { strategy: 'skip-locked', fencing: true, definition: built.definition }, ['A', 'A', '+10']);
    const decoded = decodeView(link);
    expect(decoded?.problems).toEqual([]);
    expect(decoded?.view).toMatchObject({ scenarioId: 'paused-worker', schedule: ['A', 'A', '+10'], settings: { fencing: true } });
    expect(decoded?.yourSql).toEqual(texts(NO_BUMP, { complete: COMPLETE_BY_ID }));
  });

  it('a link without any of your SQL has none', () => {
    expect(decodeView('#scenario=race&strategy=naive&fencing=off&schedule=')?.yourSql).toBeUndefined();
  });

  it.each([
    ['strategy=your-sql and no claim', '#scenario=race&strategy=your-sql', 'carries no claim= statement'],
    ['a heartbeat but no claim', '#scenario=race&strategy=your-sql&heartbeat=UPDATE%20runs', 'but no claim'],
    ['an empty claim', '#scenario=race&strategy=your-sql&claim=', 'but no claim'],
    ['statements too long for a link', `#scenario=race&claim=${'x'.repeat(MAX_YOUR_SQL_LINK_CHARS + 1)}`, 'too long'],
  ])("%s: the view opens with the scenario's strategy and says why", (_, fragment, said) => {
    const decoded = decodeView(fragment);
    expect(decoded?.yourSql).toBeUndefined();
    expect(decoded?.view.scenarioId).toBe('race');
    expect(decoded?.view.settings.strategy).toBe('naive');
    expect(decoded?.problems.join(' ')).toContain(said);
  });

  it('says how long statements are when they do not fit a link', () => {
    expect(tooLongForLink(texts(NO_BUMP))).toBeNull();
    expect(tooLongForLink(texts(`${NO_BUMP}\n${'-- a comment\n'.repeat(800)}`))).toMatch(
      /take [\d,]+ characters in a link, more than the 7,500 a link can carry/,
    );
  });
});

describe('what the editor says after Apply (issue 33, defect 8)', () => {
  const problemOf = async (claim: string) => {
    const built = await buildYourSql(texts(claim));
    return built.ok ? null : built.problem;
  };

  it('text ending in ";" (and blank lines) plays as applied: the editor does not ask for another Apply', async () => {
    const built = await buildYourSql(texts(`${NO_BUMP};\n\n`));
    expect(built.ok).toBe(true);
    const playing = built.ok ? yourSqlTextsOf(built.definition) : null;
    expect(sameTexts(playing, texts(`${NO_BUMP};\n\n`))).toBe(true);
    expect(sameTexts(playing, texts(`\n${NO_BUMP}`))).toBe(true);
    expect(sameTexts(playing, texts(NO_BUMP.replace('LIMIT 1', 'LIMIT 1 ')))).toBe(false);
    expect(sameTexts(playing, texts(NO_BUMP, { complete: COMPLETE_BY_ID }))).toBe(false);
  });

  it.each([
    ['a waiting FOR SHARE finder (PGlite cannot resume it)', FOR_SHARE, 'plays'],
    ['a FOR KEY SHARE finder (the engine cannot replay its wait)', corpus('07-for-key-share'), 'plays'],
    ['a statement that is not an UPDATE', 'DROP TABLE runs', 'refuses'],
    ['two statements', `${NO_BUMP};\nDELETE FROM runs`, 'refuses'],
    ['an UPDATE of another table', NO_BUMP.replaceAll('runs', 'jobs'), 'refuses'],
  ])('%s: check --db %s it', async (_, claim, onServer) => {
    expect(await problemOf(claim)).toMatchObject({ role: 'claim', kind: 'refused', onServer });
  });
});

describe('the saved draft', () => {
  it('survives a new store on the same storage, versioned', () => {
    const storage = new MemoryStorage();
    expect(saveDraft(storage, texts(NO_BUMP, { work: 'UPDATE runs SET progress = progress + 1 WHERE run_id = $1' }))).toBe(true);
    expect(JSON.parse(storage.data.get(DRAFT_KEY)!)).toMatchObject({ version: 1, claim: NO_BUMP, heartbeat: null });
    expect(loadDraft(storage)).toEqual({ kind: 'read', texts: texts(NO_BUMP, { work: 'UPDATE runs SET progress = progress + 1 WHERE run_id = $1' }) });
  });

  it.each([
    ['not JSON', '{', 'unreadable'],
    ['a claim that is not text', JSON.stringify({ version: 1, claim: 42 }), 'unreadable'],
    ['a write that is not text', JSON.stringify({ version: 1, claim: 'x', work: ['x'] }), 'unreadable'],
    ['no version', JSON.stringify({ claim: 'x' }), 'unreadable'],
    ['a statement far too long', JSON.stringify({ version: 1, claim: 'x'.repeat(20_000) }), 'unreadable'],
  ])('%s: unreadable, and the editor starts from the strategy and says so', (_, stored, kind) => {
    const storage = new MemoryStorage();
    storage.data.set(DRAFT_KEY, stored);
    expect(loadDraft(storage).kind).toBe(kind);
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    store.getState().openYourSql();
    expect(store.getState().yourSql.draft).toEqual(prefill(store.getState().settings));
    expect(store.getState().yourSql.note).toContain('could not be read');
  });

  it("a newer lab's draft is shown and never written over", () => {
    const storage = new MemoryStorage();
    const newer = JSON.stringify({ version: 2, claim: NO_BUMP, heartbeat: null, work: null, complete: null, future: true });
    storage.data.set(DRAFT_KEY, newer);
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    store.getState().openYourSql();
    expect(store.getState().yourSql.draft?.claim).toBe(NO_BUMP);
    store.getState().editYourSql('claim', 'SELECT 1');
    expect(storage.data.get(DRAFT_KEY)).toBe(newer);
    expect(store.getState().yourSql.note).toContain('newer version');
  });

  it("a link followed with the editor open and a built-in strategy in it closes the editor (the picker says the link's strategy); the draft stays", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start('#scenario=race&strategy=skip-locked&fencing=on&schedule=&step=0');
    store.getState().openYourSql();
    store.getState().editYourSql('claim', NO_BUMP);
    await store.getState().openLink('#scenario=race&strategy=naive&fencing=off&schedule=A&step=1');
    expect(store.getState().yourSql.open).toBe(false);
    expect(store.getState().settings).toMatchObject({ strategy: 'naive', fencing: false });
    expect(store.getState().yourSql.draft?.claim).toBe(NO_BUMP);
  });

  it('an edit is saved as it is typed, and a new store opens the editor with it', () => {
    const storage = new MemoryStorage();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    store.getState().openYourSql();
    expect(store.getState().yourSql.draft?.claim).toContain('FOR UPDATE SKIP LOCKED');
    store.getState().editYourSql('claim', NO_BUMP);
    store.getState().editYourSql('heartbeat', 'UPDATE runs SET heartbeat_at = now() WHERE run_id = $1');
    const again = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    again.getState().openYourSql();
    expect(again.getState().yourSql.draft).toEqual(texts(NO_BUMP, { heartbeat: 'UPDATE runs SET heartbeat_at = now() WHERE run_id = $1' }));
  });
});

let db: Promise<LabDatabase>;
beforeAll(() => {
  db = bootLabDatabase();
});

/** A store with a saved place and lesson progress, as a returning learner has them. */
async function returningLearner() {
  const storage = new MemoryStorage();
  storage.data.set(PROGRESS_STORAGE_KEY, '{"version":3,"kept":"exactly"}');
  const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
  await store.getState().start('#scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A&step=2');
  return { storage, store };
}

function said(store: ReturnType<typeof createLabStore>): string {
  const notice = store.getState().notices.at(-1);
  return notice ? [notice.title, ...notice.details].join(' ') : '';
}

describe('links with statements in them, on the real engine', () => {
  it('an accepted claim is played: the steps run it, and the address is the same link', async () => {
    const storage = new MemoryStorage();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    const fragment = `scenario=paused-worker&strategy=your-sql&fencing=on&schedule=A,A&step=2&claim=${encodeURIComponent(NO_BUMP)}`;
    await store.getState().start(`#${fragment}`);
    const state = store.getState();
    expect(state.notices).toEqual([]);
    expect(state.settings.definition?.claim.shape === 'one-statement' && state.settings.definition.claim.claim.text).toBe(NO_BUMP);
    expect(state.steps[0]).toMatchObject({ sqlId: 'your-claim', sql: NO_BUMP });
    // No generation bump: A's claim keeps generation 17.
    expect(state.steps[1]?.runs.find((run) => run.run_id === 123)).toMatchObject({ status: 'running', lease_owner: 'A', lease_generation: 17 });
    expect(encodeView({ scenarioId: state.scenarioId, settings: state.settings, schedule: state.schedule, position: state.position })).toBe(fragment);
    expect(state.yourSql).toMatchObject({ open: true, draft: texts(NO_BUMP), problem: null });
  });

  it("a completion that deletes its run, from check's link: played on the page, the run leaves the runs table", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    const claim = corpus('01-atomic-skip-locked');
    const complete = 'DELETE FROM runs WHERE run_id = $1';
    await store
      .getState()
      .start(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,A,A,A,A&claim=${encodeURIComponent(claim)}&complete=${encodeURIComponent(complete)}`);
    const state = store.getState();
    expect(state.notices).toEqual([]);
    const done = state.steps.at(-1)!;
    expect(done).toMatchObject({ action: 'complete', sqlId: 'your-complete', verdict: 'ok', outcome: { status: 'ok', rows: [], rowCount: 1 } });
    expect(done.facts).toEqual([{ kind: 'completed', worker: 'A', run: 123, deleted: true }]);
    expect(done.runs.map((run) => run.run_id)).toEqual([124]);
    expect(done.anomalies).toEqual([]);
  });

  it.each([
    ['a shape the lab cannot replay (a waiting FOR SHARE finder)', FOR_SHARE, 'refused: a waiting FOR SHARE finder'],
    ['a statement that is not a claim at all', 'DROP TABLE runs', 'the claim: refused'],
    ['two statements', `${NO_BUMP};\nDELETE FROM runs`, 'the claim: refused'],
    ['a syntax error', 'WITH candidate AS (\n  SELEC run_id FROM runs\n)', 'the claim: line 2, column 3: syntax error at or near "SELEC"'],
    ['a NUL character', 'SELECT 1\u0000', 'NUL'],
    ['HTML and script', '<script>alert(1)</script>', 'the claim: line 1, column 1: syntax error at or near "<"'],
  ])('%s: the scenario opens with its own strategy, the notice says why, and nothing saved is lost', async (_, claim, reason) => {
    const { storage, store } = await returningLearner();
    const progress = storage.data.get(PROGRESS_STORAGE_KEY);
    await store.getState().openLink(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,B&claim=${encodeURIComponent(claim)}`);
    const state = store.getState();
    expect(state.scenarioId).toBe('race');
    expect(state.settings.definition).toBeUndefined();
    expect(state.steps.length).toBeGreaterThan(0);
    expect(said(store)).toContain('Its SQL was not played:');
    expect(said(store)).toContain(reason);
    expect(said(store)).toContain('your statements are in the editor');
    expect(state.yourSql.draft?.claim).toBe(claim);
    expect(state.yourSql.problem).not.toBeNull();
    expect(storage.data.get(PROGRESS_STORAGE_KEY)).toBe(progress);
    // The link's statements are not the learner's draft: only typing saves one.
    expect(storage.data.has(DRAFT_KEY)).toBe(false);
  });

  it('the saved place keeps your SQL, and a reload plays it again', async () => {
    const storage = new MemoryStorage();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await store.getState().start('#scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A&step=2');
    store.getState().openYourSql();
    store.getState().editYourSql('claim', NO_BUMP);
    expect(await store.getState().applyYourSql()).toBe(true);
    const { scenarioId, settings, schedule, position } = store.getState();
    const { savePlace } = await import('../../src/store/persist');
    savePlace(storage, { scenarioId, settings, schedule, position });
    expect(JSON.parse(storage.data.get(PLACE_KEY)!)).toMatchObject({ strategy: 'skip-locked', yourSql: texts(NO_BUMP) });
    expect(loadPlace(storage)?.yourSql).toEqual(texts(NO_BUMP));
    const again = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await again.getState().start('');
    expect(yourSqlTextsOf(again.getState().settings.definition)).toEqual(texts(NO_BUMP));
    expect(again.getState().steps.map((step) => step.action)).toEqual(store.getState().steps.map((step) => step.action));
  });

  it("Apply with a syntax error keeps PostgreSQL's message and position and plays nothing new", async () => {
    const { store } = await returningLearner();
    store.getState().openYourSql();
    store.getState().editYourSql('claim', "UPDATE runs\nSET status = 'running'\nWERE run_id = 1\nRETURNING run_id");
    expect(await store.getState().applyYourSql()).toBe(false);
    expect(store.getState().yourSql.problem).toEqual({
      role: 'claim',
      kind: 'syntax',
      message: 'syntax error at or near "WERE"',
      line: 3,
      column: 1,
      lineText: 'WERE run_id = 1',
    });
    expect(store.getState().settings.definition).toBeUndefined();
  });

  it('a built-in strategy chosen after your SQL replaces it, and the draft stays', async () => {
    const { store } = await returningLearner();
    store.getState().openYourSql();
    store.getState().editYourSql('claim', NO_BUMP);
    expect(await store.getState().applyYourSql()).toBe(true);
    await store.getState().chooseStrategy('naive');
    expect(store.getState().settings).toEqual({ strategy: 'naive', fencing: true });
    expect(store.getState().yourSql.draft?.claim).toBe(NO_BUMP);
  });
});

describe('a claim the analyzer accepts but the lab cannot play at some step (db/custom-claim-guard.ts)', () => {
  // No LIMIT: one claim takes every claimable run, and the lab's worker follows one run per claim.
  const TAKES_ALL = corpus('21-cte-skip-locked-no-limit');
  let guarded: Promise<LabDatabase>;
  beforeAll(() => {
    guarded = bootLabDatabase().then(guardCustomClaim);
  });

  it('a step: the lab stays where it was, and the editor and a notice give the reason', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => guarded), storage: null });
    await store.getState().start(`#scenario=race&strategy=your-sql&fencing=off&schedule=&claim=${encodeURIComponent(TAKES_ALL)}`);
    expect(store.getState().settings.definition).toBeDefined();
    expect(await store.getState().stepWorker('A')).toBe(false);
    const state = store.getState();
    expect(state.loaded).toBe(true);
    expect(state.settings.definition).toBeDefined();
    expect(state.steps).toEqual([]);
    expect(said(store)).toContain('Your claim cannot take step 1 in the lab. One claim took 2 runs (123, 124)');
    expect(state.yourSql.problem).toMatchObject({ role: 'claim', kind: 'refused', reason: expect.stringContaining('one run per claim') });
  });

  it('a link whose schedule reaches that step: the lab opens at the steps before it', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => guarded), storage: null });
    await store.getState().start(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,B&claim=${encodeURIComponent(TAKES_ALL)}`);
    const state = store.getState();
    expect(state.loaded).toBe(true);
    expect(state.scenarioId).toBe('race');
    expect(said(store)).toContain('Your claim cannot play this schedule in the lab: one claim took 2 runs (123, 124)');
    expect(state.steps).toEqual([]);
    // The lab still works: the built-in strategies play as ever.
    await store.getState().chooseStrategy('skip-locked');
    expect(await store.getState().stepWorker('A')).toBe(true);
  });

  it("the engine's reopening says what it kept and why; a crash's replay does not stand in for a refusal", async () => {
    const built = await buildYourSql(texts(TAKES_ALL));
    if (!built.ok) throw new Error('the corpus claim builds');
    const lab = new InProcessLabClient(() => guarded);
    const place = { scenarioId: 'race', settings: { strategy: 'naive' as const, fencing: false, definition: built.definition }, schedule: ['A', 'B'] };
    const link = await lab.request({ type: 'reopen', place, after: 'link', onInapplicable: 'stop' });
    expect(link).toMatchObject({ kept: 0, why: { kind: 'claim-refused', reason: expect.stringContaining('one run per claim') } });
    expect(link.dropped.map((token) => token.token)).toEqual(['A', 'B']);
    await expect(lab.request({ type: 'reopen', place, after: 'crash', onInapplicable: 'stop' })).rejects.toMatchObject({
      refused: { role: 'claim', reason: expect.stringContaining('one run per claim') },
    });
  });

  it('applied to a schedule it cannot play: the scenario starts afresh with it', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => guarded), storage: null });
    await store.getState().start('#scenario=race&strategy=skip-locked&fencing=off&schedule=A,B&step=2');
    store.getState().openYourSql();
    store.getState().editYourSql('claim', TAKES_ALL);
    expect(await store.getState().applyYourSql()).toBe(true);
    const state = store.getState();
    expect(state.loaded).toBe(true);
    expect(yourSqlTextsOf(state.settings.definition)?.claim).toBe(TAKES_ALL);
    expect(state.steps).toEqual([]);
    expect(said(store)).toContain('The lab started the scenario afresh with your SQL.');
  });
});

describe('a write of yours the lab cannot follow through a wait (issue 33): refused, not "PostgreSQL raised an error"', () => {
  // The lab's heartbeat with a transaction-level try-lock: at step 6 B's open claim holds run 123 (A's lease ran
  // out), so A's heartbeat would wait for it; on a real server it waits holding advisory lock 123 (a third
  // session's try-lock answers false), which PGlite's NOWAIT probe released.
  const HEARTBEAT_XACT = readFileSync(join(__dirname, '../../src/sql/heartbeat-fenced.sql'), 'utf8')
    .replace('AND lease_generation = $3', 'AND lease_generation = $3\n  AND pg_try_advisory_xact_lock($1)')
    .replace(/;\s*$/, '');
  const LAB_CLAIM = corpus('01-atomic-skip-locked');
  const link = (schedule: string) =>
    `#scenario=heartbeat&strategy=your-sql&fencing=on&schedule=${schedule}&claim=${encodeURIComponent(LAB_CLAIM)}&heartbeat=${encodeURIComponent(HEARTBEAT_XACT)}`;
  let guarded: Promise<LabDatabase>;
  beforeAll(() => {
    guarded = bootLabDatabase().then(guardCustomClaim);
  });

  it('a step: one notice naming the heartbeat and why, however many presses; the steps before it are kept; moving on ends it', async () => {
    expect(HEARTBEAT_XACT).toContain('pg_try_advisory_xact_lock($1)');
    const store = createLabStore({ lab: new InProcessLabClient(() => guarded), storage: null });
    await store.getState().start(link('A,A,%2B30,%2B40,B'));
    expect(store.getState().schedule).toEqual(['A', 'A', '+30', '+40', 'B']);
    store.getState().seek(store.getState().steps.length);
    for (let press = 0; press < 3; press++) expect(await store.getState().stepWorker('A')).toBe(false);
    const state = store.getState();
    expect(state.schedule).toEqual(['A', 'A', '+30', '+40', 'B']);
    expect(state.settings.definition).toBeDefined();
    const told = state.notices.filter((notice) => notice.title.startsWith('Your heartbeat'));
    expect(told).toHaveLength(1);
    expect(said(store)).toMatch(
      /^Your heartbeat cannot take step 6 in the lab\. It would wait here, and it takes a transaction-level advisory lock: .*--heartbeat FILE --db URL\)\. The lab kept your steps before it\.$/,
    );
    expect(said(store)).not.toContain('PostgreSQL raised an error');
    expect(state.yourSql.problem).toMatchObject({ role: 'heartbeat', kind: 'refused' });
    store.getState().seek(2);
    expect(store.getState().notices.filter((notice) => notice.title.startsWith('Your heartbeat'))).toEqual([]);
  });

  it("the engine's refusal names your heartbeat, the step and its schedule (the explorer shows this line), and crosses as the heartbeat's", async () => {
    const built = await buildYourSql(texts(LAB_CLAIM, { heartbeat: HEARTBEAT_XACT }));
    if (!built.ok) throw new Error('the heartbeat builds');
    const played = runSchedule(await guarded, findScenario('heartbeat')!, { strategy: 'skip-locked', fencing: true, definition: built.definition }, [
      'A',
      'A',
      '+30',
      '+40',
      'B',
      'A',
    ]);
    const error = await played.catch((thrown: unknown) => thrown);
    expect((error as Error).message).toMatch(
      /^your heartbeat: refused on PGlite at step 6 \(A\) of --schedule A,A,\+30,\+40,B,A: it would wait here, and it takes a transaction-level advisory lock/,
    );
    expect(yourSqlRefusalOf(error)).toEqual({ role: 'heartbeat', reason: expect.stringMatching(/^it would wait here, .*--heartbeat FILE --db URL\)$/) });
  });

  it('a link whose schedule reaches that step opens before its first step, saying so in one line', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => guarded), storage: null });
    await store.getState().start(link('A,A,%2B30,%2B40,B,A'));
    const state = store.getState();
    expect(state.settings.definition).toBeDefined();
    expect(state.steps).toEqual([]);
    expect(said(store)).toContain('Your heartbeat cannot play this schedule in the lab: it would wait here, and it takes a transaction-level advisory lock');
    expect(said(store)).not.toContain('PostgreSQL raised an error');
  });
});

describe('SQL that parses but cannot be played as the lab ran it (issue 34)', () => {
  const LAB_CLAIM = corpus('01-atomic-skip-locked');
  const TYPO = LAB_CLAIM.replace("status = 'pending'", "statuss = 'pending'");
  const FOREVER = LAB_CLAIM.replace('now() + make_interval(secs => $2)', "'infinity'::timestamptz + make_interval(secs => $2)");

  it('a link whose claim fails when run opens the scenario with its own strategy, the error in the editor and a notice', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,B,A,B&step=4&claim=${encodeURIComponent(TYPO)}`);
    const state = store.getState();
    expect(state.loaded).toBe(true);
    expect(state.settings.definition).toBeUndefined();
    expect(state.schedule).toEqual(['A', 'B', 'A', 'B']);
    expect(said(store)).toContain('Its SQL was not played: PostgreSQL raised an error when the lab ran it (column "statuss" does not exist).');
    expect(said(store)).toContain('The lab used "Naive SELECT then UPDATE"; your statements are in the editor.');
    expect(state.yourSql).toMatchObject({ open: true, draft: texts(TYPO), problem: { role: null, kind: 'invalid' } });
  });

  it('a claim that sets a time the clock cannot show is never put in the store: the same refusal', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,B&step=2&claim=${encodeURIComponent(FOREVER)}`);
    const state = store.getState();
    expect(state.loaded).toBe(true);
    expect(state.settings.definition).toBeUndefined();
    expect(said(store)).toContain("run 123's lease_expires_at is infinity, a time the lab's clock and timeline cannot show");
  });

  it('applied, then stepped: the step fails, the lab goes back to the built-in strategy and keeps the steps', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start('#scenario=race&strategy=skip-locked&fencing=off&schedule=&step=0');
    store.getState().openYourSql();
    store.getState().editYourSql('claim', TYPO);
    await store.getState().applyYourSql();
    expect(store.getState().settings.definition).toBeDefined();
    expect(await store.getState().stepWorker('A')).toBe(false);
    const state = store.getState();
    expect(state.loaded).toBe(true);
    expect(state.settings).toMatchObject({ strategy: 'skip-locked' });
    expect(state.settings.definition).toBeUndefined();
    expect(said(store)).toContain('Your SQL was not played, so the lab plays "Atomic claim (FOR UPDATE SKIP LOCKED)".');
    expect(state.yourSql.problem).toMatchObject({ kind: 'invalid', message: expect.stringContaining('column "statuss" does not exist') });
    // The lab plays on.
    expect(await store.getState().stepWorker('A')).toBe(true);
  });

  /** The lab's database, failing on its own (a bug of the lab's: no SQLSTATE) when the learner's claim runs. */
  async function failingOnYourClaim(): Promise<LabDatabase> {
    const lab = await db;
    return new Proxy(lab, {
      get(target, key, receiver) {
        if (key !== 'executeClaim') return Reflect.get(target, key, receiver);
        return (session: string, request: { statement: { id: string } }) => {
          if (request.statement.id === CUSTOM_CLAIM_IDS.claim) throw new Error('the lab lost track of its parked transactions');
          return target.executeClaim(session as never, request as never);
        };
      },
    });
  }

  it('a link whose claim meets a failure of the lab (no SQLSTATE) says the lab failed, not PostgreSQL', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(failingOnYourClaim), storage: null });
    await store.getState().start(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,B&step=2&claim=${encodeURIComponent(LAB_CLAIM)}`);
    expect(store.getState().loaded).toBe(true);
    expect(store.getState().settings.definition).toBeUndefined();
    expect(said(store)).toContain('Its SQL was not played: the lab failed while playing it (the lab lost track of its parked transactions).');
    expect(said(store)).not.toContain('PostgreSQL raised');
  });

  it('a step that meets a failure of the lab says the lab failed, and the lab plays on with the built-in strategy', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(failingOnYourClaim), storage: null });
    await store.getState().start('#scenario=race&strategy=skip-locked&fencing=off&schedule=&step=0');
    store.getState().openYourSql();
    store.getState().editYourSql('claim', LAB_CLAIM);
    await store.getState().applyYourSql();
    expect(await store.getState().stepWorker('A')).toBe(false);
    expect(store.getState().settings.definition).toBeUndefined();
    expect(store.getState().yourSql.problem).toMatchObject({ message: expect.stringContaining('the lab failed while playing it (the lab lost track') });
    expect(JSON.stringify(store.getState().yourSql.problem)).not.toContain('PostgreSQL raised');
    expect(await store.getState().stepWorker('A')).toBe(true);
  });

  it('a claim nested too deeply for the lab to read says so (not that the parser could not be loaded)', async () => {
    const nested = LAB_CLAIM.replace("status = 'pending'", `${'NOT('.repeat(1_400)}status <> 'pending'${')'.repeat(1_400)}`);
    const built = await buildYourSql(texts(nested));
    expect(built).toMatchObject({
      ok: false,
      problem: { role: 'claim', kind: 'invalid', message: expect.stringContaining('it is nested too deeply for the lab to read') },
    });
  });
});

describe("a claim in two statements (psql's \\gset) typed in the page, played as check --claim plays it", () => {
  const fixture = (name: string) => readFileSync(join(__dirname, `../fixtures/claims/two-statement-${name}.sql`), 'utf8');
  const PLAIN = fixture('plain');
  const WITNESS = 'A,A,B,A,A,B,A,B,A,B';

  it('the plain SELECT: each SELECT and UPDATE is a step, the witness double-claims run 123 as `npm run sim -- run race --claim … --schedule` says, and the link reopens it', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    const fragment = `scenario=race&strategy=your-sql&fencing=off&schedule=${WITNESS}&step=11&claim=${encodeURIComponent(PLAIN)}`;
    await store.getState().start(`#${fragment}`);
    const state = store.getState();
    expect(state.notices).toEqual([]);
    // As the CLI's run prints them (its steps 1 to 11).
    expect(state.steps.map((step) => `${step.actor} ${step.action} ${step.verdict}`)).toEqual([
      'A select ok',
      'A claim ok',
      'B select ok',
      'A commit ok',
      'A work ok',
      'B claim ok',
      'A work blocked',
      'B commit ok',
      'A work ok',
      'A complete ok',
      'B work rejected',
    ]);
    expect(state.steps[0]).toMatchObject({ sqlId: 'your-claim-select' });
    expect(state.steps[1]?.sql).toContain('WHERE run_id = $3');
    const last = state.steps.at(-1)!;
    expect(last.anomalies.map((anomaly) => [anomaly.kind, anomaly.steps.map((i) => i + 1), anomaly.message])).toEqual([
      ['double-claim', [2, 6], "Workers A and B both believe they own run 123: B claimed it while A's lease on it still had 60 s to run."],
      ['split-ownership', [6, 9, 10], "A's write to run 123 committed with stale generation 18 while B held generation 19: split ownership."],
      ['duplicate-execution', [5, 7, 11], 'Run 123 was executed by both A and B: 3 model calls were paid for one run.'],
    ]);
    expect(last.runs.find((run) => run.run_id === 123)).toMatchObject({ status: 'done', lease_owner: 'B', lease_generation: 19 });
    // The editor and the link give the claim back as written, \\gset and :run_id included.
    expect(state.yourSql).toMatchObject({ open: true, draft: texts(PLAIN), problem: null });
    expect(encodeView({ scenarioId: state.scenarioId, settings: state.settings, schedule: state.schedule, position: state.position })).toBe(fragment);
  });

  it("each worker's program shows the SELECT and the UPDATE as two lines, and the pointer moves from one to the other", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start('#scenario=race&strategy=skip-locked&fencing=off');
    store.getState().openYourSql();
    store.getState().editYourSql('claim', fixture('skip-locked'));
    expect(await store.getState().applyYourSql()).toBe(true);
    const { settings } = store.getState();
    const scenario = findScenario('race')!;
    const program = workerProgram('A', scenario, settings);
    const claimLines = program.slice(0, 3).map((line) => (line.kind === 'statement' ? [line.lead, line.file, line.firstLine, line.action] : null));
    expect(claimLines).toEqual([
      // Named as the learner wrote them (psql's words), not by the lab's ids.
      ['BEGIN;', 'your SELECT … \\gset', 'SELECT run_id', 'select'],
      [null, 'your UPDATE', 'UPDATE runs', 'claim'],
      [null, 'transaction-commit.sql', 'COMMIT', 'commit'],
    ]);
    const pointerAt = () => {
      const state = store.getState();
      const worker = state.steps.at(-1)?.workers.find((w) => w.id === 'A');
      return worker ? pointerOf(program, worker, scenario, settings, 0) : null;
    };
    await store.getState().stepWorker('A');
    expect(pointerAt()).toMatchObject({ kind: 'next', line: 1 });
    await store.getState().stepWorker('A');
    expect(pointerAt()).toMatchObject({ kind: 'next', line: 2 });
  });

  it("SKIP LOCKED: B passes over the run A's SELECT locked and takes the other", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start(`#scenario=race&strategy=your-sql&fencing=off&schedule=A,B,A,B&claim=${encodeURIComponent(fixture('skip-locked'))}`);
    const state = store.getState();
    expect(state.notices).toEqual([]);
    expect(state.steps.map((step) => step.facts.find((fact) => fact.kind === 'selected-in-transaction'))).toMatchObject([
      { worker: 'A', run: 123, locked: true },
      { worker: 'B', run: 124, locked: true },
      undefined,
      undefined,
    ]);
    expect(state.steps.at(-1)!.anomalies).toEqual([]);
  });

  it.each([
    ['an unset :name', PLAIN.replace('= :run_id', '= :picked'), ':picked is not set by the \\gset, which sets :run_id'],
    ['three statements', `${PLAIN}\nSELECT 1;`, '3 statements: the lab plays a SELECT … \\gset and then one UPDATE that uses it'],
    ['another psql command', PLAIN.replace('1 \\gset', '1 \\gexec'), "psql's \\gexec: the lab reads one psql command"],
  ])("%s: refused in the CLI's words, one line, the learner's text kept", async (_, claim, reason) => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    store.getState().openYourSql();
    store.getState().editYourSql('claim', claim);
    expect(await store.getState().applyYourSql()).toBe(false);
    const { problem, draft } = store.getState().yourSql;
    expect(problem?.role).toBe('claim');
    const words = problem?.kind === 'refused' ? problem.reason : problem?.kind === 'invalid' ? problem.message : '';
    expect(words).toContain(reason);
    expect(words).not.toContain('\n');
    expect(draft?.claim).toBe(claim);
    expect(store.getState().settings.definition).toBeUndefined();
  });

  it.each([
    ['in the SELECT', PLAIN.replace("WHERE status = 'pending'", "WERE status = 'pending'"), 4],
    ['in the UPDATE', PLAIN.replace('WHERE run_id = :run_id', 'WERE run_id = :run_id'), 14],
    ['after :name on its line', PLAIN.replace('WHERE run_id = :run_id', 'WHERE run_id = :run_id ORR true'), 14],
  ])("a syntax error %s keeps PostgreSQL's message, placed at its line and column in the text as typed", async (_, claim, line) => {
    const built = await buildYourSql(texts(claim));
    if (built.ok || built.problem.kind !== 'syntax') throw new Error(JSON.stringify(built));
    const { message, lineText, column } = built.problem;
    expect(built.problem.line).toBe(line);
    expect(lineText).toBe(claim.split('\n')[line - 1]);
    const word = /at or near "([^"]+)"/.exec(message)![1]!;
    expect(lineText.slice(column - 1)).toMatch(new RegExp(`^${word}`));
  });

  it.each([
    ['a waiting FOR UPDATE without LIMIT 1: only PGlite cannot replay it, check --db plays it', fixture('for-update').replace('LIMIT 1\n', ''), 'plays'],
    ['FOR SHARE: no database plays it', fixture('for-update').replace('FOR UPDATE \\gset', 'FOR SHARE \\gset'), 'refuses'],
  ])('%s', async (_, claim, onServer) => {
    const built = await buildYourSql(texts(claim));
    expect(built).toMatchObject({ ok: false, problem: { role: 'claim', kind: 'refused', onServer } });
  });

  it('a binding of its own does not go with it: the UPDATE gets $1 worker, $2 lease seconds and :name', async () => {
    const built = await buildYourSql({ ...texts(PLAIN), params: ['1=worker'] });
    expect(built).toMatchObject({ ok: false, problem: { role: 'claim', message: expect.stringContaining('$1 worker, $2 lease seconds and :name') } });
  });
});
