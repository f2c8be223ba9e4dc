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
import { formatSpecSummary, MAX_PERMUTATIONS, type SpecReport, specReport } from '../spec/report';
import { header, runPermutations, type SpecDriver } from '../spec/run';
import { closeOnSignal } from './failure';
import { interleavingCount, type PermutationStep, parsePermutation, parseSpec, permutationsOf, type Spec, SpecSyntaxError } from '../spec/parse';

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
    driver = await PGliteSpecDriver.open(spec);
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
