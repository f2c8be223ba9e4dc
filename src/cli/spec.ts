/**
 * `npm run sim -- spec FILE.spec [--permutation "s1a s2a …"]… --db URL [--json]`: a spec in PostgreSQL's
 * isolation-tester format, every permutation (or the given ones) on that server, printed in the isolation
 * tester's own output form (diff it with PostgreSQL's expected/NAME.out). A spec's `check NAME { query }`
 * blocks run after each permutation and must return no rows.
 *
 * Exit codes: 0 every check held (or there are none), 1 some permutation broke a check (the shortest such
 * permutation is printed again with its output), 2 bad input or a server it cannot use (one line).
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { header, type PermutationRun, runPermutations } from '../spec/run';
import { closeOnSignal } from './failure';
import { interleavingCount, type PermutationStep, parsePermutation, parseSpec, permutationsOf, type Spec, SpecSyntaxError } from '../spec/parse';

/** More interleavings than anyone would wait for: name the ones you mean with --permutation. */
const MAX_PERMUTATIONS = 5_000;
/** Far more than a spec; a bigger file is not one. */
const MAX_FILE_BYTES = 1_000_000;

class SpecInputError extends Error {
  readonly userFacing = true;
}

function readSpecFile(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new SpecInputError(`${path}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof SpecInputError) throw error;
    const code = (error as { code?: string }).code;
    throw new SpecInputError(`${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? 'unknown error'})`}`);
  }
  if (size > MAX_FILE_BYTES) throw new SpecInputError(`${path}: ${size} bytes, far more than a spec (at most ${MAX_FILE_BYTES})`);
  return readFileSync(path, 'utf8');
}

/** The spec in FILE, or one line `FILE:line:column: what is wrong`. */
export function specFromFile(path: string): Spec {
  const text = readSpecFile(path);
  try {
    return parseSpec(text);
  } catch (error) {
    if (error instanceof SpecSyntaxError) throw new SpecInputError(`${path}:${error.line}:${error.column}: ${error.reason}`);
    throw error;
  }
}

export interface SpecReport {
  file: string;
  database: { kind: 'postgres'; server: string };
  sessions: string[];
  permutations: { steps: string[]; output: string; invalid: string | null; brokenChecks: string[] }[];
  /** The shortest permutation that broke a check, or null. */
  shortestBroken: { steps: string[]; output: string; brokenChecks: string[] } | null;
  exitCode: 0 | 1;
}

export function specReport(file: string, server: string, spec: Spec, runs: PermutationRun[]): SpecReport {
  const permutations = runs.map((run) => ({
    steps: run.names,
    output: run.output,
    invalid: run.invalid,
    brokenChecks: run.checks.filter((c) => c.broken).map((c) => c.name),
  }));
  const broken = permutations.filter((p) => p.brokenChecks.length > 0);
  const shortest = broken.reduce<(typeof broken)[number] | null>((best, p) => (best === null || p.steps.length < best.steps.length ? p : best), null);
  return {
    file,
    database: { kind: 'postgres', server },
    sessions: spec.sessions.map((s) => s.name),
    permutations,
    shortestBroken: shortest ? { steps: shortest.steps, output: shortest.output, brokenChecks: shortest.brokenChecks } : null,
    exitCode: shortest ? 1 : 0,
  };
}

/** The lines after the tester's text: only for a spec with checks, so PostgreSQL's own specs diff cleanly. */
export function formatSpecSummary(spec: Spec, report: SpecReport): string {
  if (spec.checks.length === 0) return '';
  const valid = report.permutations.filter((p) => p.invalid === null).length;
  const brokenCount = report.permutations.filter((p) => p.brokenChecks.length > 0).length;
  const lines = ['', `checks (${spec.checks.map((c) => c.name).join(', ')}) after each of ${valid} permutations:`];
  if (!report.shortestBroken) {
    lines.push(`every check held in all ${valid} (exit 0)`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`broken in ${brokenCount} of ${valid}; the shortest: --permutation "${report.shortestBroken.steps.join(' ')}"`);
  lines.push(report.shortestBroken.output.replace(/^\n/, '').trimEnd());
  lines.push(`BROKEN: ${report.shortestBroken.brokenChecks.join(', ')} (exit 1)`);
  return `${lines.join('\n')}\n`;
}

export async function spec(args: string[], serverName: (url: string) => string): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: { permutation: { type: 'string'; multiple: true }; db: { type: 'string' }; json: { type: 'boolean' } };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args,
      options: { permutation: { type: 'string', multiple: true }, db: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new SpecInputError((error as Error).message.split('\n')[0]!.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  const { values, positionals } = parsed;
  const [file, extra] = positionals;
  if (file === undefined) throw new SpecInputError('spec needs a file: npm run sim -- spec FILE.spec --db postgres://…');
  if (extra !== undefined) throw new SpecInputError(`unexpected argument "${extra.slice(0, 60)}"`);
  const spec = specFromFile(file);
  let permutations: PermutationStep[][] | null;
  try {
    permutations = values.permutation?.length ? values.permutation.map((text) => parsePermutation(spec, text)) : null;
  } catch (error) {
    if (error instanceof SpecSyntaxError) throw new SpecInputError(`--permutation: ${error.reason}`);
    throw error;
  }
  if (!permutations) {
    if (spec.permutations.length === 0 && interleavingCount(spec) > MAX_PERMUTATIONS) {
      throw new SpecInputError(
        `${file}: every order of its steps is ${interleavingCount(spec)} permutations, more than ${MAX_PERMUTATIONS}; name the ones you mean with permutation lines or --permutation`,
      );
    }
    permutations = permutationsOf(spec);
  }
  const url = values.db;
  if (url === undefined) {
    throw new SpecInputError(
      'spec runs with --db postgres://…: PGlite is one session, and a spec needs one real connection per session (the lab does not follow specs on PGlite yet)',
    );
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new SpecInputError(`--db takes a postgres:// URL, not "${url.slice(0, 60)}"`);
  const server = serverName(url);

  const { PostgresSpecDriver } = await import('../db/postgres-spec');
  const driver = await PostgresSpecDriver.open(
    url,
    spec.sessions.map((s) => s.name),
  );
  // A signal closes it (main.ts: the throwaway database and role are dropped) before the process exits.
  const open = { kind: 'postgres', close: () => driver.close() };
  closeOnSignal.add(open);
  try {
    // Each part ends in a newline, which console.log adds back: the text is the isolation tester's, byte for byte.
    const print = (text: string) => {
      if (!values.json && text !== '') console.log(text.replace(/\n$/, ''));
    };
    print(header(spec));
    const runs = await runPermutations(spec, permutations, driver, {
      onPermutation: (run) => {
        print(run.output);
        for (const failure of run.teardownFailures) console.error(`lease-lab: ${failure}`);
      },
    });
    const report = specReport(file, server, spec, runs);
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else print(formatSpecSummary(spec, report));
    return report.exitCode;
  } finally {
    // Unless a signal took it to close it already.
    if (closeOnSignal.delete(open)) await driver.close();
  }
}
