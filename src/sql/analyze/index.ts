/**
 * The analyzer's front door. Everything behind it (PostgreSQL's parser as WebAssembly, the deparser) is
 * loaded by import() on the first call, so a page that never analyzes a statement never downloads it.
 */
import type { Analysis } from './analyze';
import type { Role } from './contract';

export type { AfterWait, Analysis, AnalyzeError, LockingClause, LockStrength, Shape, WaitPolicy } from './analyze';
export type { Role } from './contract';
export type { Refusal, RefusalId } from './refusals';

export async function analyzeStatement(statement: string, role: Role): Promise<Analysis> {
  const { analyzeStatement: analyze } = await import('./analyze');
  return analyze(statement, role);
}
