/**
 * "Your SQL" with a reaper of the learner's own (issue 33 item 6, the page's side of check --reaper): built as
 * check builds it (the rescuer's one statement, its own parameters bound), refused in one line as check
 * refuses it, kept by the draft, carried by the link, and check's witness links carrying it with the
 * rescuer's lane check played it on; on a built-in scenario without one, the page plays it on the same lane.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { witnessLink } from '../../src/cli/check';
import { lanedFrom, reaperScenario, ScheduleAsWritten, withReaperLane, withRescueSteps } from '../../src/scenarios/reaper-lane';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { FIX_SCENARIOS, findScenario, SCENARIOS } from '../../src/scenarios';
import { copySpecOf, PICKER_NAME_CHARS, pickerName, scenarioFromSpec, starterSpec } from '../../src/scenarios/authored';
import { createLabStore } from '../../src/store/lab-store';
import { decodeView, encodeView } from '../../src/store/permalink';
import { viewOf } from '../../src/store/sync';
import { buildYourSql, checkTexts, sameTexts, type YourSqlTexts, yourSqlTextsOf } from '../../src/store/your-sql';
import { CUSTOM_REAPER_ID } from '../../src/strategies/custom';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { MemoryStorage } from '../support/memory-storage';

const asRun = (path: string) =>
  readFileSync(join(__dirname, '../..', path), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .trim()
    .replace(/;$/, '');
const PENDING_ONLY = asRun('tests/ground-truth/claim-corpus/11-skip-locked-no-expired-branch.sql');
const REAPER =
  "UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'running' AND lease_expires_at < now() - $1::interval";
const BOUND = ["reaper:1='5 seconds'"];

const texts = (reaper: string | null, params?: string[]): YourSqlTexts => ({
  claim: PENDING_ONLY,
  heartbeat: null,
  work: null,
  complete: null,
  ...(reaper === null ? {} : { reaper }),
  ...(params ? { params } : {}),
});

async function built(source: YourSqlTexts) {
  const result = await buildYourSql(source);
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.definition;
}

describe('a reaper in Your SQL', () => {
  it("is the rescuer's one statement, its parameter a constant, and reads back as typed", async () => {
    const definition = await built(texts(REAPER, BOUND));
    const rescuer = definition.rescuer;
    expect(rescuer?.shape === 'one-statement' && rescuer.sweep).toMatchObject({ id: CUSTOM_REAPER_ID, text: REAPER, params: [{ constant: '5 seconds' }] });
    expect(yourSqlTextsOf(definition)).toEqual(texts(REAPER, BOUND));
    expect(sameTexts(yourSqlTextsOf(definition), texts(REAPER, ["reaper:1='6 seconds'"]))).toBe(false);
    expect(sameTexts(yourSqlTextsOf(definition), texts(null, BOUND))).toBe(false);
  });

  it.each([
    ['a $n given no value', texts(REAPER), { role: 'reaper', kind: 'invalid', message: 'it uses $1, which is given no value ($1 = …)' }],
    ['not an UPDATE', texts('DELETE FROM runs WHERE true'), { role: 'reaper', kind: 'refused' }],
    ['a syntax error', texts('UPDATE runs SET status = WHERE'), { role: 'reaper', kind: 'syntax', line: 1 }],
    ['a binding with no reaper', texts(null, BOUND), { role: null, kind: 'invalid', message: "$1 = '5 seconds': there is no reaper of your own to bind" }],
  ])('%s: one line, under the reaper', async (_, source, problem) => {
    const result = await buildYourSql(source);
    expect(result).toMatchObject({ ok: false, problem });
    if (!result.ok && 'message' in result.problem) expect(result.problem.message).not.toContain('\n');
  });

  it('the saved draft keeps it, and a draft with no reaper reads as before', () => {
    expect(checkTexts({ version: 1, ...texts(REAPER, BOUND) })).toEqual(texts(REAPER, BOUND));
    expect(checkTexts({ version: 1, ...texts(null) })).toEqual(texts(null));
    expect(checkTexts({ version: 1, ...texts(null), reaper: 42 })).toBeNull();
  });

  it('the link carries it as reaper= with its bindings, and reads it back', async () => {
    const definition = await built(texts(REAPER, BOUND));
    const fragment = encodeView({
      scenarioId: 'incident-pg-boss-555',
      settings: { strategy: 'naive', fencing: false, definition },
      schedule: ['A'],
      position: null,
    });
    expect(fragment).toContain(`&reaper=${encodeURIComponent(REAPER)}&params=reaper:1=`);
    const decoded = decodeView(fragment);
    expect(decoded?.problems).toEqual([]);
    expect(sameTexts(decoded!.yourSql!, texts(REAPER, BOUND))).toBe(true);
  });
});

describe("check's witness link with a reaper", () => {
  it('carries the reaper, its bindings, and the scenario with the lane check added, as a copy', async () => {
    const definition = await built(texts(REAPER, BOUND));
    const scenario = withReaperLane(findScenario('crash-orphan')!);
    const link = witnessLink(scenario, { strategy: 'skip-locked', fencing: true, definition }, ['A', 'crash:A', '+30', 'rescue'], BOUND);
    const decoded = decodeView(link);
    expect(decoded?.problems).toEqual([]);
    expect(sameTexts(decoded!.yourSql!, texts(REAPER, BOUND))).toBe(true);
    const opened = findScenario(decoded!.view.scenarioId);
    expect(opened?.id).toMatch(/^authored-/);
    expect(opened?.rescuer).toEqual({});
    expect(opened?.script).toEqual(scenario.script);
    expect(decoded?.view.schedule).toEqual(['A', 'crash:A', '+30', 'rescue']);
  });

  it("names a scenario with its own rescuer's lane by its id", async () => {
    const definition = await built(texts(REAPER, BOUND));
    const link = witnessLink(findScenario('incident-pg-boss-555')!, { strategy: 'skip-locked', fencing: true, definition }, ['A'], BOUND);
    expect(link).toMatch(/^#scenario=incident-pg-boss-555&strategy=your-sql&/);
    expect(link).not.toContain('&sc=');
    expect(link).toContain('&reaper=');
  });
});

describe("a reaper on a built-in scenario without a rescuer's lane", () => {
  it('is played on the lane check gives it: one copy, found again by its id', () => {
    const crashOrphan = findScenario('crash-orphan')!;
    const laned = reaperScenario(crashOrphan);
    expect(laned?.id).toMatch(/^authored-/);
    expect(laned?.scenario.rescuer).toEqual({});
    expect(laned?.scenario.script).toEqual(withReaperLane(crashOrphan).script);
    expect(laned?.scenario.script).toContain('rescue');
    expect(reaperScenario(withReaperLane(crashOrphan))?.id).toBe(laned?.id);
    expect(lanedFrom(laned!.id)?.id).toBe('crash-orphan');
    expect(lanedFrom('crash-orphan')).toBeUndefined();
    expect(reaperScenario(findScenario('incident-pg-boss-555')!)).toMatchObject({ id: 'incident-pg-boss-555', spec: null });
  });

  it("the picker names each built-in's copy by its headline and (copy), short enough for a phone's picker", () => {
    expect(pickerName(reaperScenario(findScenario('crash-orphan')!)!.scenario.title)).toBe('A crashes (copy)');
    const labels = [...SCENARIOS, ...FIX_SCENARIOS].flatMap((scenario) => {
      const laned = scenario.rescuer === undefined ? reaperScenario(scenario) : null;
      return laned === null ? [] : [pickerName(laned.scenario.title)];
    });
    expect(labels.length).toBeGreaterThan(10);
    expect(labels).toContain('A pauses past its lease, then writes (copy)');
    expect(labels).toContain("One tenant's backlog and another… (copy)");
    for (const label of labels) expect(label.length, label).toBeLessThanOrEqual(PICKER_NAME_CHARS);
    for (const label of labels) expect(label).toMatch(/\S \(copy\)$/);
  });

  it('the picker names an "Edit a copy" copy by the same rule, and a title someone wrote short as it is', () => {
    const copyOf = (id: string) => {
      const made = copySpecOf(findScenario(id)!);
      return 'spec' in made ? made.spec.title : made.reason;
    };
    expect(copyOf('crash-orphan')).toBe('A crashes: its run is an orphan until the lease expires (copy)');
    expect(pickerName(copyOf('crash-orphan'))).toBe('A crashes (copy)');
    expect(pickerName(copyOf('race'))).toBe('Two workers, two pending runs (copy)');
    // A copy whose title was cut to the editor's limit (…) is named by its headline all the same.
    expect(pickerName(copyOf('incident-oban-hexpm-1825'))).toBe('Oban (hexpm #1825) (copy)');
    expect(pickerName(copyOf('tenant-backlog'))).toBe("One tenant's backlog and another… (copy)");
    // A title of one's own: kept whole while it fits; past that, its headline, cut after a word.
    expect(pickerName('My scenario')).toBe('My scenario');
    expect(pickerName('Two racers: one lease')).toBe('Two racers: one lease');
    expect(pickerName('Two racers and a reaper: who wins the run when the lease runs out')).toBe('Two racers and a reaper');
    expect(pickerName('Two racers and a reaper who all want the very same run at once')).toBe('Two racers and a reaper who all want the…');
    const copies = [...SCENARIOS, ...FIX_SCENARIOS].flatMap((scenario) => {
      const made = copySpecOf(scenario);
      return 'spec' in made ? [pickerName(made.spec.title)] : [];
    });
    expect(copies.length).toBeGreaterThan(10);
    for (const label of copies) expect(label.length, label).toBeLessThanOrEqual(PICKER_NAME_CHARS);
    for (const label of copies) expect(label).toMatch(/\S \(copy\)$/);
  });

  it('a scenario someone wrote without a lane gets it too, as itself with the lane (its title kept, a new id)', () => {
    const written = scenarioFromSpec({ ...starterSpec(), script: ['A', '+61', 'B'] }).scenario!;
    const laned = reaperScenario(written);
    expect(laned?.id).not.toBe(written.id);
    expect(laned?.scenario).toMatchObject({ title: 'My scenario', rescuer: {}, script: ['A', '+61', 'rescue', 'B'] });
    expect(lanedFrom(laned!.id)).toBeUndefined();
  });

  it('the page opens it on the lane (a rescue step after each step of the clock) and the reaper rescues; another built-in scenario gets the lane too; without a reaper, none', async () => {
    const db = bootLabDatabase();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    const yours = `strategy=your-sql&fencing=on&claim=${encodeURIComponent(PENDING_ONLY)}&reaper=${encodeURIComponent(REAPER)}&params=${encodeURIComponent("reaper:1='0 seconds'")}`;
    await store.getState().start(`#scenario=crash-orphan&${yours}&schedule=A,A,A,crash:A,%2B30,%2B31`);
    const { scenarioId, steps, schedule } = store.getState();
    expect(lanedFrom(scenarioId)?.id).toBe('crash-orphan');
    // The steps of the link, as check plays them on the lane: the reaper's turn after each step of the clock.
    expect(schedule).toEqual(['A', 'A', 'A', 'crash:A', '+30', 'rescue', '+31', 'rescue']);
    const rescues = steps.filter((step) => step.actor === 'rescuer');
    expect(rescues.map((step) => step.sqlId)).toEqual([CUSTOM_REAPER_ID, CUSTOM_REAPER_ID]);
    expect(rescues.at(-1)?.facts).toEqual([{ kind: 'swept', runs: [{ run: 123, owner: 'A' }], marked: 'pending' }]);
    // A built-in strategy has no reaper of the learner's: the copy made for it goes back to the scenario it copies.
    const definition = store.getState().settings.definition!;
    await store.getState().chooseStrategy('skip-locked');
    expect(store.getState().scenarioId).toBe('crash-orphan');
    expect(store.getState().schedule).toEqual(['A', 'A', 'A', 'crash:A', '+30', '+31']);
    await store.getState().playDefinition(definition);
    expect(lanedFrom(store.getState().scenarioId)?.id).toBe('crash-orphan');
    await store.getState().chooseScenario('race');
    expect(lanedFrom(store.getState().scenarioId)?.id).toBe('race');
    await store.getState().openLink(`#scenario=race&strategy=your-sql&fencing=on&claim=${encodeURIComponent(PENDING_ONLY)}`);
    expect(store.getState().scenarioId).toBe('race');
  });
});

describe("a hand-written link with a reaper, on a built-in scenario without a rescuer's lane, counts its steps as written", () => {
  const yours = `strategy=your-sql&fencing=on&claim=${encodeURIComponent(PENDING_ONLY)}&reaper=${encodeURIComponent(REAPER)}&params=${encodeURIComponent("reaper:1='0 seconds'")}`;
  // Eight steps as written; on the lane the reaper's turn follows +30 and +31 (ten steps).
  const link = (step: string, schedule = 'A,A,A,crash:A,%2B30,%2B31,B,B') => `#scenario=crash-orphan&${yours}&schedule=${schedule}&step=${step}`;
  const shown = (store: ReturnType<typeof createLabStore>) => {
    const { steps, position } = store.getState();
    return { last: steps[position - 1]?.token, next: steps[position]?.actor, position, of: steps.length };
  };
  const said = (store: ReturnType<typeof createLabStore>) => {
    const notice = store.getState().notices.at(-1);
    return notice ? [notice.title, ...notice.details].join(' ') : '';
  };

  it('counts trace steps of the steps as written, not those of the rescue steps the lab added, and names each token by its written place', () => {
    const lane = withRescueSteps(['A', '+30', 'rescue', 'B']);
    expect(lane).toEqual(['A', '+30', 'rescue', 'rescue', 'B']);
    // B's token played two trace steps (a claim and its commit, say).
    const written = ScheduleAsWritten.onLane(
      lane,
      [0, 1, 2, 3, 4, 4].map((tokenIndex) => ({ tokenIndex })),
    );
    expect(written.stepCount).toBe(5);
    expect([0, 1, 2, 3, 4, 5].map((step) => written.position(step))).toEqual([0, 1, 2, 4, 5, 6]);
    expect(() => written.position(6)).toThrow(RangeError);
    expect([0, 1, 2, 3, 4].map((index) => written.added(index))).toEqual([false, false, true, false, false]);
    expect([0, 1, 2, 3, 4].map((index) => written.writtenIndex(index))).toEqual([0, 1, 1, 2, 3]);
  });

  it("written on the lane and played without it, counts the reaper's turns the lab dropped, each as the one step it played", () => {
    const steps = (...indexes: number[]) => indexes.map((tokenIndex) => ({ tokenIndex }));
    // ['A', '+30', 'rescue', 'B'] played as ['A', '+30', 'B'], B's token two trace steps.
    const written = ScheduleAsWritten.offLane(['A', '+30', 'rescue', 'B'], steps(0, 1, 2, 2), null);
    expect(written.stepCount).toBe(5);
    expect([0, 1, 2, 3, 4, 5].map((step) => written.position(step))).toEqual([0, 1, 2, 2, 3, 4]);
    expect([0, 1, 2, 3, 4, 5].map((step) => written.droppedTurn(step))).toEqual([null, null, null, 1, null, null]);
    expect([0, 1, 2].map((index) => [written.writtenIndex(index), written.droppedBefore(index), written.added(index)])).toEqual([
      [0, 0, false],
      [1, 0, false],
      [3, 1, false],
    ]);
    // B refused: the turn before it still counts, nothing after it.
    const refused = ScheduleAsWritten.offLane(['A', '+30', 'rescue', 'B', '+1', 'rescue'], steps(0, 1), 2);
    expect([refused.stepCount, refused.position(3), refused.droppedTurn(3)]).toEqual([3, 2, 1]);
  });

  it('step=N lands just after its N-th step, the rescue steps the lab added before it shown; past the end or malformed, one line and the last step', async () => {
    const db = bootLabDatabase();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start(link('6'));
    expect(store.getState().schedule).toEqual(['A', 'A', 'A', 'crash:A', '+30', 'rescue', '+31', 'rescue', 'B', 'B']);
    // Its 6th step is +31: the reaper's turn after it is the next step.
    expect(shown(store)).toEqual({ last: '+31', next: 'rescuer', position: 7, of: 10 });
    await store.getState().openLink(link('7'));
    expect(shown(store)).toMatchObject({ last: 'B', position: 9 });
    expect(store.getState().notices).toEqual([]);
    await store.getState().openLink(link('9'));
    expect(said(store)).toContain('It asks for step 9, but this schedule has 8 steps; the lab shows the last one.');
    expect(shown(store)).toMatchObject({ position: 10, of: 10 });
    await store.getState().openLink(link('-2'));
    expect(said(store)).toContain('The step to show must be a whole number, not "-2"; the lab shows the last step.');
    expect(shown(store)).toMatchObject({ position: 10, of: 10 });
    // A step that cannot happen is named by its place in the schedule as written.
    await store.getState().openLink(link('4', 'A,crash:A,%2B30,A'));
    expect(said(store)).toContain('Step 4 ("A") cannot happen at that point: A cannot move: A has crashed. The lab kept the 3 steps before it.');
    expect(shown(store)).toMatchObject({ last: 'rescue', position: 4, of: 4 });
  });

  it("a link the page wrote on the lane, its reaper then cut out by hand, counts its steps as the link has them: the reaper's turns too", async () => {
    const db = bootLabDatabase();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: new MemoryStorage() });
    await store.getState().start(link('6'));
    // The page's own link: the laned copy, its schedule with the reaper's turns, step=7 (just after +31).
    const pages = (step: number, schedule?: string) => {
      const fragment = encodeView({ ...viewOf(store.getState()), position: step });
      const cut = fragment.replace(/&reaper=[^&]*/, '').replace(/&params=[^&]*/, '');
      return schedule === undefined ? cut : cut.replace(/&schedule=[^&]*/, `&schedule=${schedule}`);
    };
    const laned = { afterPlus31: pages(7), onTurn: pages(6), atEnd: pages(10), past: pages(11), refused: pages(5, 'A,crash:A,%2B30,rescue,A') };
    expect(laned.afterPlus31).toMatch(/^scenario=authored-.*&schedule=A,A,A,crash:A,\+30,rescue,\+31,rescue,B,B&step=7&claim=/);
    expect(laned.afterPlus31).not.toContain('reaper=');
    await store.getState().openLink(laned.afterPlus31);
    expect(store.getState().scenarioId).toBe('crash-orphan');
    expect(store.getState().schedule).toEqual(['A', 'A', 'A', 'crash:A', '+30', '+31', 'B', 'B']);
    // Its 7th step is +31 (the reaper's turn after +30 its 6th): B's turn next.
    expect(shown(store)).toEqual({ last: '+31', next: 'B', position: 6, of: 8 });
    expect(store.getState().notices).toEqual([]);
    await store.getState().openLink(laned.atEnd);
    expect(shown(store)).toMatchObject({ last: 'B', position: 8, of: 8 });
    expect(store.getState().notices).toEqual([]);
    // Its 6th step was the reaper's turn: no reaper plays it now, so the step before it, and one line says so.
    await store.getState().openLink(laned.onTurn);
    expect(shown(store)).toMatchObject({ last: '+30', position: 5 });
    expect(said(store)).toContain(
      'It asks for step 6, the reaper\'s turn after step 5 ("+30"); without a reaper of your own there is no such turn, so the lab shows step 5.',
    );
    await store.getState().openLink(laned.past);
    expect(said(store)).toContain('It asks for step 11, but this schedule has 10 steps; the lab shows the last one.');
    expect(shown(store)).toMatchObject({ position: 8, of: 8 });
    // A step that cannot happen is named by its place in the link's schedule, the reaper's turn counted.
    await store.getState().openLink(laned.refused);
    expect(said(store)).toContain(
      'Step 5 ("A") cannot happen at that point: A cannot move: A has crashed. The lab kept the 4 steps before it, the reaper\'s turn among them not played: there is no reaper of your own to play them.',
    );
    expect(shown(store)).toMatchObject({ last: '+30', position: 3, of: 3 });
  });
});
