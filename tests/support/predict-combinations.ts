/**
 * One instance of a predict question per combination of its parameters, found by walking seeds: the
 * tests play each combination once instead of a sample of seeds that might miss one.
 */
import type { PredictGenerator, PredictInstance } from '../../src/lessons/types';

/** `combination` names an instance's parameters (its key without run ids and generations, say). */
export function everyCombination(generator: PredictGenerator, combination: (instance: PredictInstance) => string, seeds = 600): Map<string, PredictInstance> {
  const found = new Map<string, PredictInstance>();
  for (let seed = 0; seed < seeds; seed++) {
    const instance = generator.generate(seed);
    const name = combination(instance);
    if (!found.has(name)) found.set(name, instance);
  }
  return found;
}

/** long-job's parameters: the claim, its horizon, and whether B polls before or after it. */
export const longJobCombination = (instance: PredictInstance): string => {
  const [, strategy, horizon, , when] = instance.key.split('/');
  return `${strategy}/${horizon}/${when}`;
};

/** late-finish's parameters: the queue, fencing, and which worker finishes first. */
export const lateFinishCombination = (instance: PredictInstance): string => instance.key.split('/').slice(1, 4).join('/');
