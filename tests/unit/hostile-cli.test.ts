/**
 * The command line given hostile arguments, one case per test: one clear line on stderr, exit code 2,
 * nothing on stdout, no stack trace. (The everyday mistakes are in cli.test.ts.) The arguments are checked
 * in this process (simInProcess: the same runCli from argv to exit code); bytes that are not UTF-8 reach a
 * real process through bash, which also shows the process's own exit code and streams.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { type CliAnswer, projectRoot, simInProcess } from '../support/cli';

const CLI = ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/main.ts'];

/** Runs the CLI through bash, so an argument can hold bytes that are not UTF-8. */
function simBytes(script: string): CliAnswer {
  const result = spawnSync('bash', ['-c', `"${process.execPath}" ${CLI.join(' ')} ${script}`], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const sim = (...args: string[]) => simInProcess(args);

function expectOneClearLine(run: CliAnswer, message: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

it('an enormous schedule (60,000 steps: the most one argument can carry)', async () => {
  expectOneClearLine(await sim('run', 'race', '--schedule', Array(60_000).fill('A').join(',')), /the schedule has 60000 steps; the lab replays at most 2000/);
});

it('HTML and script as the scenario, printed as text', async () => {
  expectOneClearLine(await sim('run', '<script>alert(1)</script>'), /unknown scenario "<script>alert\(1\)<\/script>"; the scenarios are race,/);
});

it('a percent-encoded schedule is not decoded, and is named', async () => {
  expectOneClearLine(await sim('run', 'race', '--schedule', 'A,%E0%A4%A'), /"%E0%A4%A" is not a schedule step/);
});

it('bytes that are not UTF-8 in the schedule', () => {
  expectOneClearLine(simBytes(`run race --schedule "$(printf 'A,\\xff\\xfe')"`), /is not a schedule step/);
});

it('a line break inside an argument still gives one line', async () => {
  expectOneClearLine(await sim('run', 'race\n--json'), /unknown scenario "race\?--json"/);
});

it.each([
  ['a huge seed', '--seed=99999999999999999999', /--seed takes a whole number from 0 to 4294967295, not "99999999999999999999"/],
  ['a seed that is not a number', '--seed=NaN', /--seed takes a whole number from 0 to 4294967295, not "NaN"/],
])('%s', async (_name, arg, message) => {
  expectOneClearLine(await sim('run', 'race', arg), message);
});
