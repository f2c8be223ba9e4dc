/**
 * The page's spec runner: a spec pasted into "Your SQL", run in this Web Worker on a PGlite of its own (a
 * fresh cluster, as `npm run sim -- spec` runs one: src/db/pglite-spec.ts), never on the learner's database,
 * so the learner's scenario stands exactly as it was. What it answers is the command line's: the isolation
 * tester's text per permutation, the checks each broke, refusals where PGlite cannot follow, the exit code.
 */
import { ELSEWHERE, PGliteSpecDriver } from '../db/pglite-spec';
import { interleavingCount, parseSpec, permutationsOf, type Spec, SpecSyntaxError } from '../spec/parse';
import { PAGE_MAX_SPEC_CHARS } from './spec-limits';
import { formatSpecSummary, specReport } from '../spec/report';
import { header, runPermutations } from '../spec/run';
import type { SpecRequest, SpecResult } from './protocol';

/**
 * Fewer than the command line's 5,000: the page's engine answers nothing else while a spec runs
 * (its one queue), and a PGlite permutation takes ~8 ms.
 */
const PAGE_MAX_PERMUTATIONS = 200;

/** As the worker's other waits for PGlite (engine.worker.ts). */
const HEARTBEAT_MS = 250;

const REFUSAL_TAIL = `; ${ELSEWHERE}`;

function badInput(message: string): SpecResult {
  return { kind: 'bad-input', message };
}

/** The spec, or the one line that says what is wrong and where. */
function parsed(text: string): Spec | SpecResult {
  if (text.length > PAGE_MAX_SPEC_CHARS) return badInput(`the spec is ${text.length} characters, far more than a spec (at most ${PAGE_MAX_SPEC_CHARS})`);
  try {
    return parseSpec(text);
  } catch (error) {
    if (error instanceof SpecSyntaxError) return badInput(`line ${error.line}, column ${error.column}: ${error.reason}`);
    throw error;
  }
}

/** Runs every permutation of the pasted spec; `progress` is called after each (the page's watchdog hears it). */
export async function runPastedSpec(request: SpecRequest, progress: () => void): Promise<SpecResult> {
  const spec = parsed(request.text);
  if ('kind' in spec) return spec;
  if (spec.permutations.length === 0 && interleavingCount(spec) > PAGE_MAX_PERMUTATIONS) {
    return badInput(
      `every order of its steps is ${interleavingCount(spec)} permutations, more than the page runs (${PAGE_MAX_PERMUTATIONS}); name the ones you mean with permutation lines, or run it with npm run sim -- spec FILE`,
    );
  }
  if (spec.permutations.length > PAGE_MAX_PERMUTATIONS) {
    return badInput(
      `it names ${spec.permutations.length} permutations, more than the page runs (${PAGE_MAX_PERMUTATIONS}); run it with npm run sim -- spec FILE`,
    );
  }
  // Starting its Postgres may fetch PGlite's files (from the browser's cache, or the network): the watchdog
  // hears that the request is alive meanwhile, whenever the worker's thread is free to say so.
  const heartbeat = setInterval(progress, HEARTBEAT_MS);
  const driver = await PGliteSpecDriver.open(spec, { keepFreshCopy: true }).finally(() => clearInterval(heartbeat));
  try {
    const runs = await runPermutations(spec, permutationsOf(spec), driver, { onPermutation: progress });
    const report = specReport('pasted.spec', { kind: 'pglite' }, spec, runs);
    return {
      kind: 'ran',
      header: header(spec),
      sessions: report.sessions,
      checks: spec.checks.map((check) => check.name),
      permutations: report.permutations.map((p, index) => ({
        ...p,
        refused: p.refused?.endsWith(REFUSAL_TAIL) ? p.refused.slice(0, -REFUSAL_TAIL.length) : p.refused,
        // The lanes need the run's own trace (its columns), not the report's record of it.
        trace: runs[index]!.trace,
        checks: runs[index]!.checks,
      })),
      summary: formatSpecSummary(spec, report),
      exitCode: report.exitCode,
    };
  } finally {
    await driver.close();
  }
}
