/**
 * What a spec run found, as data (the command line's --json) and as the summary printed after the tester's
 * text: one home for both, used by `npm run sim -- spec` and by the page's spec runner (src/spec/page-run.ts).
 */
import type { ResultSet } from './output';
import type { Spec } from './parse';
import type { PermutationRun, StepTrace } from './run';

/** More interleavings than anyone would wait for: name the ones you mean with --permutation. */
export const MAX_PERMUTATIONS = 5_000;

/** One step of a permutation as it ran (run.ts's StepTrace), in the order sent: for a tool, not for the eye. */
export interface StepRecord {
  session: string;
  step: string;
  sql: string;
  /** It was reported "<waiting ...>". */
  waited: boolean;
  /** A step that waited: the step sent last before it returned (on PGlite, the one that freed its lock). */
  releasedBy: string | null;
  /** False: the permutation stopped with it still running (invalid, or refused on PGlite). */
  returned: boolean;
  /** Each result set it gave back, in order (a step's SQL may hold several statements). */
  results: ResultSet[];
  /** Its error, with the SQLSTATE; null when it had none. */
  error: { code: string; message: string } | null;
}

export interface SpecReport {
  file: string;
  database: { kind: 'postgres'; server: string } | { kind: 'pglite' };
  sessions: string[];
  permutations: { steps: string[]; output: string; invalid: string | null; refused: string | null; brokenChecks: string[]; trace: StepRecord[] }[];
  /** The shortest permutation that broke a check, or null. */
  shortestBroken: { steps: string[]; output: string; brokenChecks: string[] } | null;
  /** How many permutations PGlite refused (always 0 on a server). */
  refusedCount: number;
  exitCode: 0 | 1 | 2;
}

function stepRecord(trace: StepTrace): StepRecord {
  const error = trace.replies.find((reply) => reply.kind === 'error');
  return {
    session: trace.session,
    step: trace.step,
    sql: trace.sql,
    waited: trace.waited,
    releasedBy: trace.releasedBy,
    returned: trace.returnedAt !== null,
    results: trace.replies.flatMap((reply) => (reply.kind === 'rows' ? [reply.result] : [])),
    error: error ? { code: error.code, message: error.message } : null,
  };
}

export function specReport(file: string, database: SpecReport['database'], spec: Spec, runs: PermutationRun[]): SpecReport {
  const permutations = runs.map((run) => ({
    steps: run.names,
    output: run.output,
    invalid: run.invalid,
    refused: run.refused,
    brokenChecks: run.checks.filter((c) => c.broken).map((c) => c.name),
    trace: run.trace.map(stepRecord),
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
