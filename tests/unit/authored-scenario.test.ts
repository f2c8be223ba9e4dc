/**
 * Authored scenarios: a spec is checked field by field as defineScenario checks the lab's own, travels in
 * a link and a saved place, and plays on the real store and engine (PGlite in Node) like a built-in one.
 * Hostile links carrying one (the kinds of broken link hostile-links.test.ts covers, applied to `sc=`)
 * end in a clear notice, and a lab in use keeps the learner's place.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { findScenario } from '../../src/scenarios';
import { adoptAuthored, type ScenarioSpec, scenarioFromSpec, specOf, starterSpec } from '../../src/scenarios/authored';
import { createLabStore, type LabStore } from '../../src/store/lab-store';
import { decodeView, encodeView, MAX_LINK_CHARS } from '../../src/store/permalink';
import { loadPlace, PLACE_KEY, savePlace } from '../../src/store/persist';
import { decodeScenarioParam, encodeSpec, MAX_SCENARIO_CHARS } from '../../src/scenarios/link';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { instructorScenarioSpec } from '../support/scenario-specs';
import { MemoryStorage } from '../support/memory-storage';

let db: Promise<LabDatabase>;
beforeAll(() => {
  db = bootLabDatabase();
});

/** The instructor's case from the issue: three workers, a 5-minute lease, a worker that pauses. */
const SPEC = instructorScenarioSpec();

/** encodeSpec(SPEC) as written by the lab before workers had names (main@9520b88). */
const LINK_BEFORE_NAMES =
  '1.eyJ0aXRsZSI6Ik91ciBxdWV1ZTogQSBwYXVzZXMgZHVyaW5nIGl0cyBsZWFzZSIsImRlc2NyaXB0aW9uIjpbIlRocmVlIHdvcmtlcnMsIHR3byB0ZW5hbnRzLCBhIGZpdmUtbWludXRlIGxlYXNlLiIsIkEgZnJlZXplcyBmb3Igc2l4IG1pbnV0ZXMgYXQgMTU6MDIgYW5kIHRoZW4gd3JpdGVzLiJdLCJ3b3JrZXJzIjozLCJydW5zIjpbeyJydW5JZCI6NTAxLCJ0ZW5hbnQiOiJhY21lIiwiY29zdENlbnRzIjowfSx7InJ1bklkIjo1MDIsInRlbmFudCI6Imdsb2JleCIsImNvc3RDZW50cyI6MTIwfV0sImxlYXNlU2Vjb25kcyI6MzAwLCJoZWFydGJlYXRTZWNvbmRzIjpudWxsLCJzdHJhdGVneSI6InNraXAtbG9ja2VkIiwiZmVuY2luZyI6dHJ1ZSwiZmF1bHRzIjpbeyJraW5kIjoicGF1c2UiLCJ3b3JrZXIiOiJBIiwiYXRTZWNvbmRzIjoxMjAsImZvclNlY29uZHMiOjM2MH1dLCJzY3JpcHQiOlsiQSIsIkEiLCJBIiwiQiIsIkIiLCJCIiwiKzEyMCIsIiszMDEiLCJDIiwiQyIsIkMiLCIrNjAiLCJBIl19';

function built(spec: ScenarioSpec) {
  const result = scenarioFromSpec(spec);
  if (result.scenario === null) throw new Error(result.problems.map((p) => p.message).join('; '));
  return result.scenario;
}

function said(store: LabStore): string {
  const notice = store.getState().notices.at(-1);
  return notice ? [notice.title, ...notice.details].join(' ') : '';
}

function linkOf(spec: ScenarioSpec, rest = 'schedule=&step=0'): string {
  return `#scenario=${built(spec).id}&sc=${encodeSpec(spec)}&${rest}`;
}

describe('a scenario spec', () => {
  it('becomes a scenario with workers A…, runs oldest first, and an id from its content', () => {
    const scenario = built(SPEC);
    expect(scenario.workers.map((w) => w.id)).toEqual(['A', 'B', 'C']);
    expect(scenario.runs.map((r) => [r.runId, r.tenant, r.costCents])).toEqual([
      [501, 'acme', 0],
      [502, 'globex', 120],
    ]);
    expect(scenario.runs[0]!.createdAtSeconds).toBeLessThan(scenario.runs[1]!.createdAtSeconds);
    expect(scenario.summary).toBe(`${SPEC.description[0]}\n${SPEC.description[1]}`);
    expect(scenario.id).toMatch(/^authored-[0-9a-f]{8}$/);
    expect(built({ ...SPEC, leaseSeconds: 301 }).id).not.toBe(scenario.id);
    expect(specOf(scenario)).toEqual(SPEC);
  });

  it.each<[string, Partial<ScenarioSpec>, string, string]>([
    ['an empty title', { title: ' ' }, 'title', 'the title is empty'],
    ['a title too long', { title: 'x'.repeat(81) }, 'title', 'the title has 81 characters; at most 80 fit'],
    ['an empty description', { description: ['', ''] }, 'summary', 'the description is empty'],
    ['a description line too long', { description: ['ok', 'y'.repeat(121)] }, 'summary', 'line 2 of the description has 121 characters'],
    ['one worker', { workers: 1 }, 'workers', 'a scenario has 2 to 4 workers, not 1'],
    ['no runs', { runs: [] }, 'runs', 'a scenario seeds 1 to 8 runs, not 0'],
    [
      'two runs with one id',
      {
        runs: [
          { runId: 7, tenant: 'a', costCents: 0 },
          { runId: 7, tenant: 'b', costCents: 0 },
        ],
      },
      'runs.1.runId',
      'two runs have id 7',
    ],
    ['a run id of 0', { runs: [{ runId: 0, tenant: 'a', costCents: 0 }] }, 'runs.0.runId', 'run 1: its id must be a whole number from 1 to 2147483647, not 0'],
    ['a tenant with spaces', { runs: [{ runId: 1, tenant: 'big corp', costCents: 0 }] }, 'runs.0.tenant', 'run 1: a tenant is 1 to 32 small letters'],
    ['a negative cost', { runs: [{ runId: 1, tenant: 'a', costCents: -5 }] }, 'runs.0.costCents', 'run 1: its cost must be a whole number of cents from 0'],
    ['a lease of 0 s', { leaseSeconds: 0 }, 'leaseSeconds', 'the lease must be a whole number of seconds from 1 to 86400, not 0'],
    [
      'a heartbeat of 2.5 s',
      { heartbeatSeconds: 2.5 },
      'heartbeatSeconds',
      'the heartbeat must be a whole number of seconds from 1 to 86400, or none, not 2.5',
    ],
    [
      'a fault of a worker not there',
      { faults: [{ kind: 'crash', worker: 'D', atSeconds: 5 }] },
      'faults.0.worker',
      'fault 1 (crash): this scenario has no worker D; its workers are A, B, C',
    ],
    [
      'a pause of 0 s',
      { faults: [{ kind: 'pause', worker: 'A', atSeconds: 5, forSeconds: 0 }] },
      'faults.0.forSeconds',
      'fault 1 (pause): it must last a whole number of seconds from 1',
    ],
    [
      'a fault at a negative time',
      { faults: [{ kind: 'crash', worker: 'A', atSeconds: -1 }] },
      'faults.0.atSeconds',
      'fault 1 (crash): its time must be a whole number of seconds from 0',
    ],
    ['a schedule step that is no step', { script: ['A', 'jump'] }, 'script', 'step 2 (jump):'],
    ['a worker name of spaces', { workerNames: { A: ' ' } }, 'workers.A.name', `worker A's name must be 1 to 40 characters, not " "`],
    ['a worker name too long', { workerNames: { B: 'x'.repeat(41) } }, 'workers.B.name', "worker B's name must be 1 to 40 characters"],
    ['a name for a worker not there', { workerNames: { D: 'host:d' } }, 'workerNames', 'there is no worker "D" to name; the workers are A, B, C'],
    ['a schedule step naming a missing worker', { script: ['D'] }, 'script', 'step 1 (D): this scenario has no worker D; its workers are A, B, C'],
  ])('names the field for %s', (_name, change, field, message) => {
    const result = scenarioFromSpec({ ...SPEC, ...change });
    expect(result.scenario).toBeNull();
    expect(result.problems[0]).toEqual({ field, message: expect.stringContaining(message) });
  });

  it('names every wrong field at once', () => {
    const result = scenarioFromSpec({ ...SPEC, title: '', leaseSeconds: -1, heartbeatSeconds: 0 });
    expect(result.problems.map((p) => p.field)).toEqual(['title', 'leaseSeconds', 'heartbeatSeconds']);
  });

  it('is checked again, and must match its id, when it crosses into a Web Worker', () => {
    const scenario = built(SPEC);
    expect(adoptAuthored(structuredClone(scenario))).toEqual(scenario);
    expect(() => adoptAuthored({ ...scenario, leaseSeconds: 5 })).toThrow('does not match its content');
    expect(() => adoptAuthored({ ...scenario, workers: [{ id: 'A' }] })).toThrow('is not valid');
  });
});

describe('an authored scenario in a link', () => {
  it('round-trips: the whole scenario is in the link, which stays compact', () => {
    const scenario = built(SPEC);
    const text = encodeView({ scenarioId: scenario.id, settings: { strategy: 'cas', fencing: false }, schedule: ['A', 'B'], position: 2 });
    expect(text).toMatch(new RegExp(`^scenario=${scenario.id}&sc=1\\.[A-Za-z0-9_-]+&strategy=cas&fencing=off&schedule=A,B&step=2$`));
    expect(text.length).toBeLessThan(1000);
    const decoded = decodeScenarioParam(text.split('&')[1]!.slice(3));
    expect(decoded.scenario).toEqual(scenario);
    expect(decodeView(text)).toEqual({
      view: { scenarioId: scenario.id, settings: { strategy: 'cas', fencing: false }, schedule: ['A', 'B'], position: 2 },
      problems: [],
    });
  });

  it("keeps its workers' names (two may share one), and a link written before names opens as it did", () => {
    const shared = 'host:worker pid:1';
    const named: ScenarioSpec = { ...SPEC, workerNames: { A: shared, B: shared } };
    const scenario = built(named);
    expect(scenario.workers).toEqual([{ id: 'A', name: shared }, { id: 'B', name: shared }, { id: 'C' }]);
    expect(scenario.id).not.toBe(built(SPEC).id);
    expect(specOf(scenario)).toEqual(named);
    expect(decodeScenarioParam(encodeSpec(named)).scenario).toEqual(scenario);
    expect(adoptAuthored(structuredClone(scenario))).toEqual(scenario);
    // The instructor's spec as the lab wrote it before workers had names: the same text, id and scenario.
    expect(encodeSpec(SPEC)).toBe(LINK_BEFORE_NAMES);
    const old = decodeScenarioParam(LINK_BEFORE_NAMES).scenario!;
    expect(old.id).toBe('authored-d1836ec5');
    expect(old.workers).toEqual([{ id: 'A' }, { id: 'B' }, { id: 'C' }]);
    expect(specOf(old)).not.toHaveProperty('workerNames');
  });

  it('carries text in any script (UTF-8) exactly', () => {
    const spec = { ...SPEC, title: 'Zwei Arbeiter — ünd 工作 🚀', description: ['<b>not bold</b>', ''] as [string, string] };
    expect(decodeScenarioParam(encodeSpec(spec)).scenario?.title).toBe(spec.title);
  });

  it('plays on the store and engine like a built-in scenario, and the saved place keeps it', async () => {
    const storage = new MemoryStorage();
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await store.getState().start(linkOf(SPEC, `schedule=${SPEC.script.join(',')}`));
    expect(store.getState().notices).toEqual([]);
    const id = built(SPEC).id;
    expect(store.getState().scenarioId).toBe(id);
    expect(store.getState().schedule).toEqual(SPEC.script);
    const steps = store.getState().steps;
    expect(steps.find((s) => s.action === 'pause')).toMatchObject({ actor: 'A', clockSeconds: 120 });
    expect(steps.find((s) => s.actor === 'C' && s.action === 'claim')).toMatchObject({ runId: 501, verdict: 'ok' });
    // Fencing on: A wakes after C reclaimed run 501, and its write is rejected.
    expect(steps.at(-1)).toMatchObject({ actor: 'A', action: 'work', verdict: 'rejected' });
    // The lab's own round-robin carries on past the script, as for a built-in scenario.
    expect(await store.getState().step()).toBe(true);
    const { settings, schedule } = store.getState();
    savePlace(storage, { scenarioId: id, settings, schedule, position: 3 });
    const saved = JSON.parse(storage.data.get(PLACE_KEY)!) as { authored: unknown };
    expect(saved.authored).toEqual(SPEC);
    // A fresh page (fresh modules: no authored scenario met yet) gets it back from the saved place alone.
    vi.resetModules();
    const freshScenarios = await import('../../src/scenarios');
    const freshPersist = await import('../../src/store/persist');
    expect(freshScenarios.findScenario(id)).toBeUndefined();
    expect(freshPersist.loadPlace(storage)).toEqual({ view: { scenarioId: id, settings, schedule, position: 3 }, problems: [] });
    expect(freshScenarios.findScenario(id)?.title).toBe(SPEC.title);
  });

  it('a saved place whose authored scenario was tampered with starts afresh and says why', () => {
    const storage = new MemoryStorage();
    storage.setItem(PLACE_KEY, JSON.stringify({ version: 1, scenario: 'authored-00000000', authored: { ...SPEC, workers: 9 }, schedule: [] }));
    expect(loadPlace(storage)).toEqual({
      view: expect.objectContaining({ scenarioId: 'race' }),
      problems: ['The scenario you wrote could not be restored: a scenario has 2 to 4 workers, not 9.'],
    });
  });
});

/** Base64url of a text's UTF-8 bytes, as a hostile link would carry it. */
function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
const json = (value: unknown) => b64(JSON.stringify(value));
const { version: _version, ...SPEC_BODY } = SPEC;

/** Twenty kinds of broken `sc=` value, each with the words the notice must say. */
const HOSTILE: [string, string, string][] = [
  ['an empty value', '', 'it does not start with a version number'],
  ['no version', json(SPEC_BODY), 'it does not start with a version number'],
  ['a newer version', `2.${json(SPEC_BODY)}`, 'it was written by a newer Lease Lab (version 2); this one reads version 1'],
  ['version 0', `0.${json(SPEC_BODY)}`, 'version 0 is not one this lab reads'],
  ['far too long', `1.${'A'.repeat(MAX_SCENARIO_CHARS)}`, `it is ${MAX_SCENARIO_CHARS + 2} characters long, far more than any scenario needs`],
  ['not base64url', '1.***', 'it is not in the form the lab writes'],
  ['a truncated base64url', `1.${json(SPEC_BODY).slice(0, 41)}`, 'it is not'],
  ['invalid UTF-8', `1.${Buffer.from([0xc3, 0x28]).toString('base64url')}`, 'its text is not valid UTF-8'],
  ['not JSON', `1.${b64('{title:')}`, 'it is not valid JSON'],
  ['a JSON array', `1.${json([1, 2])}`, 'the scenario is not an object of fields'],
  ['a JSON string', `1.${json('race')}`, 'the scenario is not an object of fields'],
  ['a field of the wrong type', `1.${json({ ...SPEC_BODY, workers: '3' })}`, 'a scenario has 2 to 4 workers, not "3"'],
  ['a missing field', `1.${json({ ...SPEC_BODY, runs: undefined })}`, 'the runs must be a list'],
  ['100 workers', `1.${json({ ...SPEC_BODY, workers: 100 })}`, 'a scenario has 2 to 4 workers, not 100'],
  ['100 000 runs', `1.${json({ ...SPEC_BODY, runs: Array(100_000).fill(0) })}`, 'far more than any scenario needs'],
  [
    'a huge number',
    `1.${b64(JSON.stringify(SPEC_BODY).replace('"leaseSeconds":300', '"leaseSeconds":1e400'))}`,
    'the lease must be a whole number of seconds from 1 to 86400, not Infinity',
  ],
  ['an unknown strategy in HTML', `1.${json({ ...SPEC_BODY, strategy: '<script>alert(1)</script>' })}`, 'there is no strategy "<script>alert(1)</script>"'],
  ['a prototype key', `1.${b64(JSON.stringify(SPEC_BODY).replace('{', '{"__proto__":{"polluted":true},'))}`, ''],
  [
    'a fault of a worker not there',
    `1.${json({ ...SPEC_BODY, faults: [{ kind: 'crash', worker: 'Z', atSeconds: 1 }] })}`,
    'fault 1 (crash): this scenario has no worker Z',
  ],
  ['a schedule of 100 000 steps', `1.${json({ ...SPEC_BODY, script: Array(100_000).fill('A') })}`, 'far more than any scenario needs'],
];

describe('a hostile scenario link', () => {
  it('has twenty kinds of case', () => expect(HOSTILE).toHaveLength(20));

  it.each(HOSTILE)('%s: a clear message, nothing used', (_name, value, message) => {
    const decoded = decodeScenarioParam(value);
    if (message === '') {
      // A "__proto__" key is an ordinary field of no meaning: the scenario opens, nothing is polluted.
      expect(decoded.scenario?.title).toBe(SPEC.title);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      return;
    }
    expect(decoded.scenario).toBeNull();
    expect(decoded.problem).toContain('The scenario in the link could not be opened: ');
    expect(decoded.problem).toContain(message);
  });

  it('pasted into a lab in use keeps the learner where they were', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start('#scenario=paused-worker&schedule=A,A&step=2');
    const before = { ...store.getState() };
    await store.getState().openLink(`#scenario=authored-12345678&sc=2.${json(SPEC_BODY)}&schedule=A`);
    expect(store.getState().scenarioId).toBe('paused-worker');
    expect(store.getState().schedule).toEqual(before.schedule);
    expect(said(store)).toContain('it was written by a newer Lease Lab (version 2)');
    expect(said(store)).toContain('You are still where you were.');
  });

  it('on a new visit opens the saved place instead of overwriting it', async () => {
    const storage = new MemoryStorage();
    savePlace(storage, { scenarioId: 'race', settings: { strategy: 'cas', fencing: false }, schedule: ['A'], position: 1 });
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await store.getState().start(`#scenario=x&sc=1.${json({ ...SPEC_BODY, leaseSeconds: -3 })}`);
    expect(store.getState().scenarioId).toBe('race');
    expect(store.getState().schedule).toEqual(['A']);
    expect(said(store)).toContain('the lease must be a whole number of seconds from 1 to 86400, not -3');
    expect(said(store)).toContain('The lab opened your saved place instead.');
    expect(JSON.parse(storage.data.get(PLACE_KEY)!).scenario).toBe('race');
  });

  it("a link over the lab's bound is refused before it is read", () => {
    expect(decodeView(`scenario=x&sc=1.${'A'.repeat(MAX_LINK_CHARS)}`)?.problems[0]).toContain('far more than any schedule needs');
  });

  it('an authored id without its scenario says there is no such scenario', () => {
    expect(findScenario('authored-ffffffff')).toBeUndefined();
    expect(decodeView('scenario=authored-ffffffff')?.problems[0]).toContain('There is no scenario "authored-ffffffff"');
  });

  it('the starter spec is valid', () => expect(scenarioFromSpec(starterSpec()).problems).toEqual([]));
});
