/**
 * `npm run sim -- check … --reaper FILE`: a claim that takes pending runs only, with a reaper of its own that
 * puts expired runs back to pending on the rescuer's session. The crashed worker's run is no longer stranded
 * (exit 0); a reaper that also resets a run whose lease is live hands it to a second worker (double claim,
 * exit 1, the schedule with its rescue step named); a reaper that is not an UPDATE of runs, or uses a $n no
 * --param reaper:N binds, is one line, exit 2 (a bound reaper's verdict: tests/ground-truth/check-params.test.ts). A
 * reaper's batch size in LIMIT $1 binds as a constant and rescues. `run --scenario-link` plays a link's steps written
 * without the rescuer's lane on that lane, as the page does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { starterSpec } from '../../src/scenarios/authored';
import { encodeSpec, SCENARIO_KEY } from '../../src/scenarios/link';
import { projectRoot, simInProcess } from '../support/cli';

const PENDING_ONLY = join(projectRoot, 'tests/ground-truth/claim-corpus/11-skip-locked-no-expired-branch.sql');
const REAPER = join(projectRoot, 'docs/examples/reaper.sql');
const BATCH_SIZE = join(projectRoot, 'tests/fixtures/reapers/batch-size.sql');

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-reaper-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Resets a run whose lease has up to an hour left: the lease is still live when it takes the run. */
const LEAKY = file(
  'leaky-reaper.sql',
  "UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'running' AND lease_expires_at <= now() + interval '1 hour';",
);

interface Report {
  exitCode: number;
  claim: { reaper?: string };
  groups: { key: string; witness: string[]; unsafe: boolean }[];
}

const sim = (...args: string[]) => simInProcess(args);

describe('npm run sim -- check --reaper FILE', () => {
  it("with the reaper, a claim of pending runs only leaves no crashed worker's run stranded: exit 0 (without it, exit 1)", { timeout: 120_000 }, async () => {
    const without = await sim('check', 'crash-orphan', '--claim', PENDING_ONLY, '--json');
    expect(without.code).toBe(1);
    expect((JSON.parse(without.stdout) as Report).groups.map((group) => group.key)).toContain('stranded-run:123');
    const { code, stdout, stderr } = await sim('check', 'crash-orphan', '--claim', PENDING_ONLY, '--reaper', REAPER);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/reaper: .*docs\/examples\/reaper\.sql \(its own session, a rescue step after each step of the clock\)/);
    expect(stdout).toMatch(/^ +\d+ of \d+ {2}no anomaly$/m);
    expect(stdout).toMatch(/shortest: --schedule .*crash:A,\+30,rescue,\+31,rescue/);
    expect(stdout).toMatch(/replay: npm run sim -- run crash-orphan --claim \S+ --reaper \S+reaper\.sql /);
    expect(stdout).toMatch(/exit 0\)$/m);
  });

  it('a reaper that resets a run whose lease is live hands it to a second worker: double claim, exit 1, its schedule named', { timeout: 120_000 }, async () => {
    const { code, stdout } = await sim('check', 'paused-worker', '--claim', PENDING_ONLY, '--reaper', LEAKY, '--sample', '24', '--seed', '1', '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(report.claim.reaper).toMatch(/leaky-reaper\.sql$/);
    const unsafe = report.groups.filter((group) => group.unsafe);
    expect(unsafe.length).toBeGreaterThan(0);
    expect(unsafe.every((group) => group.key.includes('double-claim:123'))).toBe(true);
    expect(unsafe.every((group) => group.witness.includes('rescue'))).toBe(true);
    // The same claim and sample with the reaper that waits for the lease to run out: no double claim.
    const honest = await sim('check', 'paused-worker', '--claim', PENDING_ONLY, '--reaper', REAPER, '--sample', '24', '--seed', '1', '--json');
    expect(honest.code).toBe(0);
  });

  it("at the schedule's end a dead worker's run is judged by the reaper and then the claim, run a day later: taken back, or stranded naming both", async () => {
    const late = file(
      'late-reaper.sql',
      "UPDATE runs SET status = 'pending', lease_owner = NULL WHERE status = 'running' AND lease_expires_at < now() - interval '2 days';",
    );
    const anomalies = async (reaper: string) => {
      const { code, stdout } = await sim(
        'run',
        'crash-orphan',
        '--claim',
        PENDING_ONLY,
        '--reaper',
        reaper,
        '--schedule',
        'A,A,B,B,crash:A,+30,+31,B',
        '--finish',
        'none',
        '--json',
      );
      expect(code).toBe(0);
      return (JSON.parse(stdout) as { anomalies: { kind: string; message: string }[] }).anomalies;
    };
    expect(await anomalies(REAPER)).toEqual([]);
    const stranded = await anomalies(late);
    expect(stranded.map((anomaly) => anomaly.kind)).toEqual(['stranded-run']);
    expect(stranded[0]!.message).toMatch(/your reaper, then the claim run by a new worker, 24 hours .* took nothing back/);
  });

  it("a reaper's batch size in LIMIT $1, bound by --param reaper:1: bound as sent, it rescues (LIMIT 0 rescues nothing)", async () => {
    const lastRescue = async (size: string) => {
      const args = ['run', 'crash-orphan', '--claim', PENDING_ONLY, '--reaper', BATCH_SIZE, '--param', `reaper:1=${size}`];
      const { code, stdout, stderr } = await sim(...args, '--schedule', 'A,A,A,crash:A,+30,rescue,+31,rescue', '--finish', 'none', '--json');
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const steps = (JSON.parse(stdout) as { steps: { actor: string; params: string[]; facts: unknown[] }[] }).steps;
      return steps.filter((step) => step.actor === 'rescuer').at(-1);
    };
    expect(await lastRescue('10')).toMatchObject({ params: ['10'], facts: [{ kind: 'swept', runs: [{ run: 123, owner: 'A' }] }] });
    expect(await lastRescue('0')).toMatchObject({ params: ['0'], facts: [{ kind: 'swept-nothing' }] });
  });

  it("run --scenario-link: a written scenario without a rescuer's lane plays the link's steps on the lane the page plays them on (the reaper's turn after each step of the clock)", async () => {
    const spec = { ...starterSpec(), strategy: 'skip-locked' as const };
    const link = `https://lab.example/#scenario=x&${SCENARIO_KEY}=${encodeSpec(spec)}&schedule=A,A,crash:A,%2B61,B`;
    const { code, stdout, stderr } = await sim('run', '--scenario-link', link, '--claim', PENDING_ONLY, '--reaper', REAPER, '--finish', 'none', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const trace = JSON.parse(stdout) as { schedule: string[]; steps: { actor: string; facts: { kind: string }[] }[] };
    expect(trace.schedule).toEqual(['A', 'A', 'crash:A', '+61', 'rescue', 'B']);
    expect(trace.steps.find((step) => step.actor === 'rescuer')?.facts).toMatchObject([{ kind: 'swept' }]);
  });

  it.each([
    ['a SELECT', 'SELECT run_id FROM runs WHERE lease_expires_at < now();', /refused \(not-an-update\).*it is a SELECT/],
    [
      'a DELETE',
      "DELETE FROM runs WHERE status = 'running' AND lease_expires_at < now();",
      /refused \(not-an-update\).*a reaper puts expired runs back to pending with an UPDATE/,
    ],
    ['no WHERE', "UPDATE runs SET status = 'pending';", /refused \(no-where\)/],
    ['another table', "UPDATE jobs SET state = 'available' WHERE true;", /refused \(wrong-target\)/],
    [
      'a parameter given no value',
      "UPDATE runs SET status = 'pending' WHERE lease_owner = $1;",
      /a-parameter-given-no-value\.sql uses \$1, which is given no value \(--param reaper:1=…\)\n$/,
    ],
  ])('a reaper that is %s: one line, exit 2', async (name, text, message) => {
    const reaper = file(`${name.replace(/\W+/g, '-')}.sql`, text);
    const { code, stdout, stderr } = await sim('check', 'crash-orphan', '--claim', PENDING_ONLY, '--reaper', reaper);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('--reaper without --claim: one line, exit 2', async () => {
    const { code, stderr } = await sim('run', 'crash-orphan', '--reaper', REAPER);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--heartbeat, --work, --complete and --reaper go with --claim FILE/);
  });
});
