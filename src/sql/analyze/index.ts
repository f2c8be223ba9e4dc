/**
 * The analyzer's front door. Everything behind it (PostgreSQL's parser as WebAssembly, the deparser) is
 * loaded by import() on the first call, so a page that never analyzes a statement never downloads it.
 *
 * How an engine on one PGlite session uses a shape (the ground truth, tests/ground-truth/claim-corpus.test.ts,
 * runs each of these steps on a real server and checks the result):
 *   1. With another transaction parked, run `probe.text` (parameters $1…$parameterCount) inside BEGIN …
 *      ROLLBACK: 55P03 means the statement would wait; anything else, send it.
 *   2. If it would wait and `afterWait.lockingFinder` is set, read `candidates` in the same call; to resume,
 *      BEGIN, run `relock` for each candidate in order (the role's parameters, then the run id) until one
 *      qualifies (55P03: wait again), then send the statement, as the lab does today for claim-for-update.
 *      This assumes the holder's lock on a run conflicts with the finder's (claims hold at least FOR NO KEY
 *      UPDATE on the runs they took; FOR KEY SHARE finders are refused for that reason).
 *   3. If it would wait and `afterWait.resume` has `found`, run `found` in the same call (the role's
 *      parameters) and keep its frozen_n columns (as JSON text) and `targets`; to resume, send
 *      `resume.statement` with [...parameters, ...frozen, targets] instead of the statement, after its own
 *      NOWAIT twin `resume.probe` (same values) says it would not wait again (55P03: it waits again, keeping
 *      what it found). The lab plays this as AfterWait 'resume-found' (src/strategies/custom.ts).
 */
import type { Analysis, AnalyzeOptions } from './analyze';
import type { Parameter, Role } from './contract';

export type { Analysis, AnalyzeError, AnalyzeOptions, GsetSelectShape, Shape } from './analyze';
export type { Role } from './contract';
export type { GsetAnalysis, GsetClaim, HeldSelect } from './gset';
export { bindHeldCompletion } from './psql-lex';
export { GSET_UPDATE_VALUES } from './contract';
export { ENGINE_ONLY_REFUSALS, NAMES_ITS_CHECK } from './refusals';

export async function analyzeStatement(statement: string, role: Role, options: AnalyzeOptions = {}): Promise<Analysis> {
  const { analyzeStatementNow: analyze } = await import('./analyze');
  return analyze(statement, role, options);
}

/** The $n a statement uses, ascending, or null when it does not parse (its analysis says why). */
export async function parametersUsed(statement: string): Promise<number[] | null> {
  const { parametersUsedNow } = await import('./analyze');
  return parametersUsedNow(statement);
}

/**
 * Fetches and starts the parser without analyzing anything, so a caller can tell a download that failed
 * (offline, a deploy in between) from a statement the analysis could not read.
 */
export async function loadAnalyzer(): Promise<void> {
  const [, { loadParser }] = await Promise.all([import('./analyze'), import('./parser')]);
  await loadParser();
}

/** The lone SELECT … \gset of a claim held for the whole job (check --hold-for-job; ./gset.ts analyzeHeldSelect). */
export async function analyzeHeldSelectFile(text: string, options: { engineRefusals?: boolean } = {}): Promise<import('./gset').HeldSelectAnalysis> {
  const [{ analyzeHeldSelect }, { loadParser }] = await Promise.all([import('./gset'), import('./parser')]);
  return analyzeHeldSelect(await loadParser(), text, options.engineRefusals !== false);
}

/**
 * A claim file with psql's \gset (a SELECT, then the UPDATE that uses its answer: ./gset.ts), analyzed; null
 * when the file has no psql command (one statement, analyzed by analyzeStatement as before).
 */
export async function analyzeGsetClaimFile(
  text: string,
  options: { engineRefusals?: boolean; parameters?: readonly Parameter[] } = {},
): Promise<import('./gset').GsetAnalysis | null> {
  const [{ analyzeGsetClaim, isGsetClaim }, { loadParser }] = await Promise.all([import('./gset'), import('./parser')]);
  if (!isGsetClaim(text)) return null;
  return analyzeGsetClaim(await loadParser(), text, options.engineRefusals !== false, options.parameters ?? null);
}
