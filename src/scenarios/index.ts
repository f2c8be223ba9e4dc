import type { Scenario, Settings, Strategy } from '../sim/types';
import { findAuthored } from './authored';
import { cancelDurable } from './cancel-durable';
import { cancelKill } from './cancel-kill';
import { crashOrphan } from './crash-orphan';
import { heartbeat } from './heartbeat';
import { lockWait } from './lock-wait';
import { pausedWorker } from './paused-worker';
import { race } from './race';
import { stuckHeartbeat } from './stuck-heartbeat';
import { threeWorkers } from './three-workers';

/** Every scenario, in the order the lesson meets them. */
export const SCENARIOS: readonly Scenario[] = [race, threeWorkers, lockWait, crashOrphan, heartbeat, stuckHeartbeat, pausedWorker, cancelDurable, cancelKill];

/** A built-in scenario, or an authored one this context has met (scenarios/authored.ts). */
export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.id === id) ?? findAuthored(id);
}

/** What the learner will see in this scenario under this strategy. */
export function scenarioSummary(scenario: Scenario, strategy: Strategy): string {
  return scenario.summaries?.[strategy] ?? scenario.summary;
}

/** The strategy and fencing a scenario opens with. */
export function defaultSettings(scenario: Scenario): Settings {
  return { strategy: scenario.defaultStrategy, fencing: scenario.defaultFencing };
}
