/**
 * `npm run sim -- run|explore|check --scenario-link '<link>' | --scenario-file FILE`: a scenario written in
 * the page's editor plays the same in the CLI; bad input is one clear line and exit 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioFromSpec } from '../../src/scenarios/authored';
import { encodeSpec } from '../../src/scenarios/link';
import { projectRoot, simInProcess, simProcess } from '../support/cli';
import { crashScenarioSpec } from '../support/scenario-specs';

const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');

// The first test starts Node as a user does (its exit code and empty stderr); the others call the same
// command line in this process.
const sim = (...args: string[]) => simInProcess(args);

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-scenario-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Small on purpose (two workers, one run): `check` explores every schedule of it. */
const SPEC = crashScenarioSpec();
const ID = (() => {
  const built = scenarioFromSpec(SPEC);
  if (!built.scenario) throw new Error('SPEC is not valid');
  return built.scenario.id;
})();
const LINK = `http://localhost:4173/#scenario=${ID}&sc=${encodeSpec(SPEC)}&strategy=cas&fencing=off&schedule=A,A,+5,+26,B&step=3`;
const FILE = file('ours.json', JSON.stringify(SPEC, null, 2));

describe('an authored scenario in the CLI', async () => {
  it('run --scenario-link plays the link: its scenario, strategy, fencing and schedule', async () => {
    const { code, stdout, stderr } = simProcess(['run', '--scenario-link', LINK, '--finish', 'none', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const trace = JSON.parse(stdout);
    expect(trace.scenario).toBe(ID);
    expect(trace.settings).toEqual({ strategy: 'cas', fencing: false });
    expect(trace.schedule).toEqual(['A', 'A', '+5', '+26', 'B']);
    expect(trace.finalRuns).toEqual([expect.objectContaining({ run_id: 900, tenant: 'initech' })]);
    expect(trace.steps).toContainEqual(expect.objectContaining({ actor: 'A', action: 'crash', clockSeconds: 5 }));
  });

  it('run --scenario-file plays the same scenario as the link, step for step', async () => {
    const fromFile = await sim(
      'run',
      '--scenario-file',
      FILE,
      '--strategy',
      'cas',
      '--fencing',
      'off',
      '--schedule',
      'A,A,+5,+26,B',
      '--finish',
      'none',
      '--json',
    );
    const fromLink = await sim('run', '--scenario-link', LINK, '--finish', 'none', '--json');
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout).steps).toEqual(JSON.parse(fromLink.stdout).steps);
  });

  it('run --scenario-file without a schedule plays its own script', async () => {
    const { code, stdout } = await sim('run', '--scenario-file', FILE, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).schedule.slice(0, SPEC.script.length)).toEqual(SPEC.script);
  });

  it('check --scenario-file --claim explores it; the witness links carry the scenario', async () => {
    const { code, stdout, stderr } = await sim('check', '--scenario-file', FILE, '--claim', SKIP_LOCKED);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`${ID}: all `);
    expect(stdout).toContain(`link: #scenario=${ID}&sc=${encodeSpec(SPEC)}&`);
    // The replay command carries the group's own link (cli-replay.test.ts runs it).
    expect(stdout).toContain(`replay: npm run sim -- run --scenario-link '#scenario=${ID}&sc=${encodeSpec(SPEC)}&strategy=your-sql&`);
    expect(stdout).toMatch(/' --claim \S+ --fencing on --schedule \S+$/m);
  });

  it('explore --scenario-link explores it', async () => {
    const { code, stdout } = await sim('explore', '--scenario-link', LINK, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).total).toBeGreaterThan(1);
  });

  it.each<[string, string[], string]>([
    [
      'a link with no scenario in it',
      ['run', '--scenario-link', '#scenario=race&schedule=A'],
      '--scenario-link: the link carries no scenario someone wrote (no "sc=")',
    ],
    [
      'a link from a newer lab',
      ['run', '--scenario-link', `#sc=2.${encodeSpec(SPEC).slice(2)}`],
      '--scenario-link: the scenario could not be opened: it was written by a newer Lease Lab (version 2)',
    ],
    [
      'a link whose scenario is broken',
      ['run', '--scenario-link', '#sc=1.eyJ0aXRsZSI6'],
      '--scenario-link: the scenario could not be opened: it is not valid JSON',
    ],
    ['a link with bad percent-encoding', ['run', '--scenario-link', '#sc=%ZZ'], '--scenario-link: part of the link is not properly encoded (sc=%ZZ)'],
    ['a link with an unknown strategy', ['run', '--scenario-link', `#sc=${encodeSpec(SPEC)}&strategy=magic`], '--scenario-link: there is no strategy "magic"'],
    [
      'a link with a schedule step that is none',
      ['run', '--scenario-link', `#sc=${encodeSpec(SPEC)}&schedule=A,jump`],
      '--scenario-link: step 2 of the schedule is wrong',
    ],
    [
      'a link whose schedule names a worker not there',
      ['run', '--scenario-link', `#sc=${encodeSpec(SPEC)}&schedule=A,Q`],
      'step 2 (Q): this scenario has no worker Q; its workers are A, B',
    ],
    ['a missing file', ['run', '--scenario-file', join(dir, 'nope.json')], 'nope.json: no such file'],
    ['a file that is not JSON', ['run', '--scenario-file', file('bad.json', '{ title: ')], 'bad.json: not valid JSON'],
    [
      'a file with nine workers',
      ['run', '--scenario-file', file('nine.json', JSON.stringify({ ...SPEC, workers: 9 }))],
      'nine.json: a scenario has 2 to 4 workers, not 9',
    ],
    [
      'a file whose fault names no worker',
      ['check', '--scenario-file', file('z.json', JSON.stringify({ ...SPEC, faults: [{ kind: 'crash', worker: 'Z', atSeconds: 1 }] })), '--claim', SKIP_LOCKED],
      'z.json: fault 1 (crash): this scenario has no worker Z; its workers are A, B',
    ],
    ['both options', ['run', '--scenario-link', LINK, '--scenario-file', FILE], '--scenario-link and --scenario-file cannot go together'],
    [
      'a scenario name as well',
      ['run', 'race', '--scenario-file', FILE],
      'unexpected argument "race": the scenario is the one given by --scenario-link or --scenario-file',
    ],
  ])('%s: exit 2 and one clear line', async (_name, args, message) => {
    const { code, stdout, stderr } = await sim(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
  });
});
