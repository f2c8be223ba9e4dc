/**
 * `npm run sim -- spec FILE.spec [--permutation "s1a s2a …"]… [--db URL] [--json]`: a spec in PostgreSQL's
 * isolation-tester format, every permutation (or the given ones), printed in the isolation tester's own
 * output form (diff it with PostgreSQL's expected/NAME.out): with --db on that server, one connection per
 * session; without, on PGlite, one emulated session per session (src/db/pglite-spec.ts), where a
 * permutation the emulation cannot follow honestly is refused (one line: the step and why) and the run goes
 * on with the next. A spec's `check NAME { query }` blocks run after each permutation and must return no rows.
 *
 * Exit codes: 0 every check held (or there are none) in every permutation, 1 some permutation broke a check
 * (the shortest such permutation is printed again with its output), 2 bad input, a server it cannot use, or
 * (none broke, but) some permutation refused on PGlite (one line on stderr).
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { permutationLine } from '../spec/output';
import { header, type PermutationRun, runPermutations, type SpecDriver } from '../spec/run';
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
  database: { kind: 'postgres'; server: string } | { kind: 'pglite' };
  sessions: string[];
  permutations: { steps: string[]; output: string; invalid: string | null; refused: string | null; brokenChecks: string[] }[];
  /** The shortest permutation that broke a check, or null. */
  shortestBroken: { steps: string[]; output: string; brokenChecks: string[] } | null;
  /** How many permutations PGlite refused (always 0 on a server). */
  refusedCount: number;
  exitCode: 0 | 1 | 2;
}

export function specReport(file: string, database: SpecReport['database'], spec: Spec, runs: PermutationRun[]): SpecReport {
  const permutations = runs.map((run) => ({
    steps: run.names,
    output: run.output,
    invalid: run.invalid,
    refused: run.refused,
    brokenChecks: run.checks.filter((c) => c.broken).map((c) => c.name),
  }));
  const refusedCount = permutations.filter((p) => p.refused !== null).length;
  const broken = permutations.filter((p) => p.brokenChecks.length > 0);
  const shortest = broken.reduce<(typeof broken)[number] | null>((best, p) => (best === null || p.steps.length < best.steps.length ? p : best), null);
  return {
    file,
    database,
    sessions: spec.sessions.map((s) => s.name),
    permutations,
    shortestBroken: shortest ? { steps: shortest.steps, output: shortest.output, brokenChecks: shortest.brokenChecks } : null,
    refusedCount,
    // A check broken in a permutation that ran is a real counter-example; without one, a refused
    // permutation leaves the answer open.
    exitCode: shortest ? 1 : refusedCount > 0 ? 2 : 0,
  };
}

/** The lines after the tester's text: only for a spec with checks, so PostgreSQL's own specs diff cleanly. */
export function formatSpecSummary(spec: Spec, report: SpecReport): string {
  if (spec.checks.length === 0) return '';
  const valid = report.permutations.filter((p) => p.invalid === null && p.refused === null).length;
  const brokenCount = report.permutations.filter((p) => p.brokenChecks.length > 0).length;
  const refused = report.refusedCount > 0 ? ` (${report.refusedCount} refused on PGlite)` : '';
  const lines = ['', `checks (${spec.checks.map((c) => c.name).join(', ')}) after each of ${valid} permutations${refused}:`];
  if (!report.shortestBroken) {
    lines.push(
      report.refusedCount > 0
        ? `no check broke in the ${valid} PGlite followed; ${report.refusedCount} refused, unanswered (exit 2)`
        : `every check held in all ${valid} (exit 0)`,
    );
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
  if (file === undefined) throw new SpecInputError('spec needs a file: npm run sim -- spec FILE.spec [--db postgres://…]');
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
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) throw new SpecInputError(`--db takes a postgres:// URL, not "${url.slice(0, 60)}"`);
  const sessionNames = spec.sessions.map((s) => s.name);
  let database: SpecReport['database'];
  let driver: SpecDriver & { close(): Promise<void> };
  if (url === undefined) {
    const { PGliteSpecDriver } = await import('../db/pglite-spec');
    driver = await PGliteSpecDriver.open(sessionNames);
    database = { kind: 'pglite' };
  } else {
    const server = serverName(url);
    const { PostgresSpecDriver } = await import('../db/postgres-spec');
    driver = await PostgresSpecDriver.open(url, sessionNames);
    database = { kind: 'postgres', server };
  }
  // A signal closes it (main.ts: on a server the throwaway database and role are dropped) before the process exits.
  const open = { kind: database.kind, close: () => driver.close() };
  closeOnSignal.add(open);
  try {
    // Each part ends in a newline, which console.log adds back: the text is the isolation tester's, byte for byte.
    const print = (text: string) => {
      if (!values.json && text !== '') console.log(text.replace(/\n$/, ''));
    };
    print(header(spec));
    const runs = await runPermutations(spec, permutations, driver, {
      onPermutation: (run) => {
        print(run.refused === null ? run.output : `${permutationLine(run.names)}refused on PGlite: ${run.refused}\n`);
        for (const failure of run.teardownFailures) console.error(`lease-lab: ${failure}`);
      },
    });
    const report = specReport(file, database, spec, runs);
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else print(formatSpecSummary(spec, report));
    const refused = report.permutations.filter((p) => p.refused !== null);
    if (refused.length === 1 && report.permutations.length === 1) console.error(`lease-lab: refused on PGlite: ${refused[0]!.refused}`);
    else if (refused.length > 0) {
      console.error(
        `lease-lab: refused on PGlite: ${refused.length} of ${report.permutations.length} permutations (the first, "${refused[0]!.steps.join(' ')}": ${refused[0]!.refused})`,
      );
    }
    return report.exitCode;
  } finally {
    // Unless a signal took it to close it already.
    if (closeOnSignal.delete(open)) await driver.close();
  }
}
