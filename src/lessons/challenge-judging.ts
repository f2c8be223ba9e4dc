/**
 * What every challenge's judge needs before it reads the run itself: is there a run, is it of the
 * challenge's scenario, was it played with the claim and fencing the challenge is about, and does its
 * schedule keep the challenge's rules. Each answer is a plain sentence the learner can act on.
 */
import { findScenario } from '../scenarios';
import { parseToken } from '../sim/schedule';
import type { Strategy, Trace, TraceStep } from '../sim/types';
import { STRATEGY_LABELS } from '../strategies';
import { baseScenarioId } from './trace-read';
import type { Judgement } from './types';

export function verdict(won: boolean, message: string, steps: number[] = []): Judgement {
  return { won, message, steps: [...new Set(steps)].sort((a, b) => a - b) };
}

/** The claim and fencing a challenge is played with; `fencing` absent: either will do. */
export interface PlayedWith {
  strategies: readonly Strategy[];
  fencing?: boolean;
  /** Why these claims, in a clause: "it is about the naive claim". */
  why: string;
}

function labels(strategies: readonly Strategy[]): string {
  const names = strategies.map((id) => `"${STRATEGY_LABELS[id]}"`);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * A judgement that is not about the run's events: no run yet, another scenario, another claim or fencing.
 * null when the run is one the challenge can judge.
 */
export function notPlayable(trace: Trace | null, scenarioIds: readonly string[], played: PlayedWith): Judgement | null {
  if (!trace) return verdict(false, 'Play a step: the level judges your run after every step.');
  if (!scenarioIds.includes(baseScenarioId(trace.scenario))) {
    const wanted = scenarioIds.map((id) => `"${findScenario(id)?.title ?? id}"`).join(' or ');
    return verdict(false, `This run is of another scenario. The level is played on ${wanted}: choose the level again in the list of levels.`);
  }
  if (trace.settings.definition) {
    return verdict(
      false,
      `This run uses a claim you wrote. The challenge is played with the lab's own claim (${labels(played.strategies)}): choose it in the Strategy list.`,
    );
  }
  if (!played.strategies.includes(trace.settings.strategy)) {
    return verdict(false, `This challenge ${played.why}: set the claim to ${labels(played.strategies)}.`);
  }
  if (played.fencing !== undefined && trace.settings.fencing !== played.fencing) {
    return verdict(false, `This challenge is played with fencing ${played.fencing ? 'on' : 'off'}: turn it ${played.fencing ? 'on' : 'off'}.`);
  }
  return null;
}

/** The schedule tokens of the given kinds (clock moves are 'advance'), as played. */
export function tokensOfKind(trace: Trace, kinds: readonly string[]): string[] {
  return trace.schedule.filter((text) => kinds.includes(parseToken(text).kind));
}

export function stepLabel(step: TraceStep): string {
  return `step ${step.index + 1}`;
}

/** "1 model call", "2 model calls". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
