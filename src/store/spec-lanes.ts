/**
 * One order of a spec's run as lanes (the page's SpecLanes): which order opens after a run, and the stops of
 * its cursor. Stop 0 is the order's start (the setups ran), stop N is after its Nth step, and there is one
 * stop more, the end, when something came after the last step: the checks ran, or the order was refused or
 * cannot happen.
 */
import type { SpecPermutationResult, SpecResult } from '../webworker/protocol';

/** An order as the link and the learner name it: its step names, space-separated. */
export const orderOf = (p: SpecPermutationResult) => p.steps.join(' ');

/** The first of the shortest permutations that broke a check (the command line's choice), or null. */
export function shortestBroken(permutations: readonly SpecPermutationResult[]): SpecPermutationResult | null {
  return permutations
    .filter((p) => p.brokenChecks.length > 0)
    .reduce<SpecPermutationResult | null>((best, p) => (best === null || p.steps.length < best.steps.length ? p : best), null);
}

/** The order whose lanes are shown: the one the learner (or the link) opened, else the shortest broken one, else the first PGlite followed. */
export function openedPermutation(result: SpecResult | null, wanted: string | null): SpecPermutationResult | null {
  if (result?.kind !== 'ran') return null;
  const { permutations } = result;
  return permutations.find((p) => orderOf(p) === wanted) ?? shortestBroken(permutations) ?? permutations.find((p) => p.refused === null) ?? null;
}

function hasEndStop(p: SpecPermutationResult): boolean {
  return p.checks.length > 0 || p.refused !== null || p.invalid !== null;
}

/** The cursor's last stop in an order. */
export function lastStop(p: SpecPermutationResult): number {
  return p.trace.length + (hasEndStop(p) ? 1 : 0);
}
