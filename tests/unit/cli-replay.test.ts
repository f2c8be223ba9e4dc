/**
 * Every command `check` prints must run as printed (issue 34 item 10): the `replay:` command under each
 * outcome group replays its witness with the same ending, and `replay this sample:` gives the same report.
 * For a scenario someone wrote the command carries the group's own link (strategy=your-sql), which `run`
 * takes with --claim.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simInProcess } from '../support/cli';
import { crashScenarioSpec } from '../support/scenario-specs';

const CORPUS_04 = 'tests/ground-truth/claim-corpus/04-cte-without-lock.sql';
const SKIP_LOCKED = 'src/strategies/skip-locked/claim-skip-locked.sql';

/** Two workers, one run, a crash: small enough to explore whole. */
const SPEC = crashScenarioSpec();
const dir = mkdtempSync(join(tmpdir(), 'lease-lab-replay-'));
const SCENARIO_FILE = join(dir, 'ours.json');
writeFileSync(SCENARIO_FILE, JSON.stringify(SPEC));

/** A printed command's words, as a POSIX shell splits them (bare words and single-quoted ones). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
  return words;
}

/** The commands a report prints after `label`, each as the arguments after `npm run sim --`. */
function printed(stdout: string, label: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim().startsWith(`${label}: npm run sim -- `))
    .map((line) => shellWords(line.trim().slice(`${label}: npm run sim -- `.length)));
}

interface Group {
  key: string;
  witness: string[];
}

async function expectEveryReplayRuns(args: string[]): Promise<void> {
  const text = await simInProcess(['check', ...args]);
  expect(text.stderr).toBe('');
  const json = JSON.parse((await simInProcess(['check', ...args, '--json'])).stdout) as { groups: Group[] };
  const commands = printed(text.stdout, 'replay');
  expect(commands).toHaveLength(json.groups.length);
  for (const [index, command] of commands.entries()) {
    const group = json.groups[index]!;
    expect(command.slice(0, 1)).toEqual(['run']);
    expect(command.at(-1)).toBe(group.witness.join(','));
    const replayed = await simInProcess([...command, '--json']);
    expect(replayed.stderr, command.join(' ')).toBe('');
    expect(replayed.code).toBe(0);
    // The witness ends the same way: each anomaly the group names, on the same run.
    const kinds = (JSON.parse(replayed.stdout) as { anomalies: { kind: string; runId: number }[] }).anomalies.map((a) => `${a.kind}:${a.runId}`);
    for (const part of group.key.split(' ').filter((word) => word.includes(':'))) expect(kinds, command.join(' ')).toContain(part);
  }
}

describe("check's printed replay commands run as printed", () => {
  it('a built-in scenario: every group of corpus 04 in the race', { timeout: 600_000 }, async () => {
    await expectEveryReplayRuns(['race', '--claim', CORPUS_04]);
  });

  it('a scenario someone wrote: run takes the printed --scenario-link (strategy=your-sql) with --claim', { timeout: 600_000 }, async () => {
    await expectEveryReplayRuns(['--scenario-file', SCENARIO_FILE, '--claim', SKIP_LOCKED]);
  });

  it('a sample: the printed check command gives the same report', { timeout: 600_000 }, async () => {
    const args = ['race', '--claim', CORPUS_04, '--max-states', '5', '--sample', '12', '--seed', '3'];
    const first = await simInProcess(['check', ...args]);
    const [sample] = printed(first.stdout, 'replay this sample');
    expect(sample).toBeDefined();
    const again = await simInProcess(sample!);
    expect(again.code).toBe(first.code);
    const groupsOf = (stdout: string) => stdout.split('\n').filter((line) => / of \d+ {2}/.test(line));
    expect(groupsOf(again.stdout)).toEqual(groupsOf(first.stdout));
  });

  it('run refuses a your-sql link without --claim, in one line that says what to add', async () => {
    const text = await simInProcess(['check', '--scenario-file', SCENARIO_FILE, '--claim', SKIP_LOCKED]);
    const [command] = printed(text.stdout, 'replay');
    const link = command![command!.indexOf('--scenario-link') + 1]!;
    const answer = await simInProcess(['run', '--scenario-link', link]);
    expect(answer.code).toBe(2);
    expect(answer.stderr.trim().split('\n')).toHaveLength(1);
    expect(answer.stderr).toMatch(/strategy=your-sql\): give its statements with --claim FILE/);
  });
});
