import type { Scenario, Settings, Strategy } from '../sim/types';
import { LIMIT_STRATEGY_IDS, strategyDefinition } from '../strategies';
import { findAuthored, isAuthoredId } from './authored';
import { cancelDurable } from './cancel-durable';
import { cancelKill } from './cancel-kill';
import { crashOrphan } from './crash-orphan';
import { dbosPr493 } from './dbos-pr-493';
import { delayedJobUniqueName } from './delayed-job-unique-name';
import { heartbeat } from './heartbeat';
import { incidentDbos491 } from './incident-dbos-491';
import { incidentDelayedJob1045 } from './incident-delayed-job-1045';
import { incidentGraphile169 } from './incident-graphile-169';
import { incidentHangfire352 } from './incident-hangfire-352';
import { incidentOban532 } from './incident-oban-532';
import { incidentObanHexpm1825 } from './incident-oban-hexpm-1825';
import { incidentPgBoss529 } from './incident-pg-boss-529';
import { incidentPgBoss555 } from './incident-pg-boss-555';
import { incidentPgqueuer430 } from './incident-pgqueuer-430';
import { incidentProcrastinate1408 } from './incident-procrastinate-1408';
import { incidentRiver141 } from './incident-river-141';
import { incidentRiver1302 } from './incident-river-1302';
import { incidentSolidQueue589 } from './incident-solid-queue-589';
import { lockWait } from './lock-wait';
import { hangfirePr353 } from './hangfire-pr-353';
import { pgBossPr523 } from './pg-boss-pr-523';
import { pgqueuerPr431 } from './pgqueuer-pr-431';
import { pausedWorker } from './paused-worker';
import { race } from './race';
import { stuckHeartbeat } from './stuck-heartbeat';
import { tenantBacklog } from './tenant-backlog';
import { threeWorkers } from './three-workers';

/** The lesson's scenarios, in the order the lesson meets them. */
export const LESSON_SCENARIOS: readonly Scenario[] = [
  race,
  threeWorkers,
  lockWait,
  crashOrphan,
  heartbeat,
  stuckHeartbeat,
  pausedWorker,
  cancelDurable,
  cancelKill,
];

/** Production queues' public incidents, replayed (each has its `incident`). */
export const INCIDENT_SCENARIOS: readonly Scenario[] = [
  incidentGraphile169,
  incidentObanHexpm1825,
  incidentPgBoss529,
  incidentPgBoss555,
  incidentRiver141,
  incidentSolidQueue589,
  incidentRiver1302,
  incidentProcrastinate1408,
  incidentOban532,
  incidentPgqueuer430,
  incidentHangfire352,
  incidentDelayedJob1045,
  incidentDbos491,
];

/**
 * Scenarios played under a claim that enforces a limit (LIMIT_STRATEGY_IDS), which the strategy picker
 * offers with them. Kept out of LESSON_SCENARIOS so the ground truth plays them under their own claims
 * only, not under every claim of the lab and every queue.
 */
export const LIMIT_SCENARIOS: readonly Scenario[] = [tenantBacklog];

/** Every scenario: the lesson's, then the limits', then the incidents. */
export const SCENARIOS: readonly Scenario[] = [...LESSON_SCENARIOS, ...LIMIT_SCENARIOS, ...INCIDENT_SCENARIOS];

/**
 * An incident's fix where it is not a guard but a setting (`incident.fix.scenarioId`): the same story with
 * the setting the job should have had. Opened from the incident's fix (a link, the comparison, the CLI),
 * not listed among the scenarios to choose.
 */
export const FIX_SCENARIOS: readonly Scenario[] = [pgBossPr523, pgqueuerPr431, hangfirePr353, delayedJobUniqueName, dbosPr493];

/** A built-in scenario, an incident's fix, or an authored one this context has met (scenarios/authored.ts). */
export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.id === id) ?? FIX_SCENARIOS.find((scenario) => scenario.id === id) ?? findAuthored(id);
}

/** The scenario an incident's fix plays: its own, or the one with the setting that fixes it. */
export function fixScenarioOf(incident: Scenario): Scenario {
  const id = incident.incident?.fix.scenarioId;
  return id === undefined ? incident : FIX_SCENARIOS.find((scenario) => scenario.id === id)!;
}

/** What the learner will see in this scenario under this strategy. */
export function scenarioSummary(scenario: Scenario, strategy: Strategy): string {
  const own = scenario.summaries?.[strategy];
  if (own !== undefined) return own;
  // An author's description is about the claim they chose (a copy of an incident: the queue's own).
  if (isAuthoredId(scenario.id) && strategy === scenario.defaultStrategy) return scenario.summary;
  // The default summary tells the story under the lab's own claims; a production queue's claim (other than
  // in its own incident) gets a line that names it and promises nothing the queue may not do.
  const definition = strategyDefinition(strategy);
  const incident = scenario.incident;
  if (incident && incident.queue !== strategy) {
    // The incident's story is its queue's; under another claim only its fix, or a plain line, holds.
    const queueName = strategyDefinition(incident.queue).queue?.name ?? incident.queue;
    if (strategy === incident.fix.strategy)
      return `The fix for ${incident.source}: ${incident.fix.inWords}${incident.fix.fencing ? ' (with fencing on)' : ''}.\nThe incident itself plays under ${queueName}'s claim.`;
    return `${scenario.title}, played with ${definition.inWords} instead of ${queueName}'s.\nStep it to see which run each worker gets.`;
  }
  if (definition.queue && !incident) {
    return `${scenario.title}, played with ${definition.inWords}.\nStep it to see which run each worker gets, and what ${definition.queue.name}'s completion guard lets through.`;
  }
  // A scenario about a limit tells its story under the claim that enforces it; a claim with no limit lets
  // acme's older backlog take both workers (tests/unit/scenario-summaries.test.ts plays each script).
  const aboutLimit = LIMIT_SCENARIOS.includes(scenario);
  if (aboutLimit && !LIMIT_STRATEGY_IDS.includes(strategy))
    return `${scenario.title}, played with ${definition.inWords}.\nThis claim has no cap per tenant: acme's runs take both workers while beta's run 124 stays pending.`;
  if (!aboutLimit && LIMIT_STRATEGY_IDS.includes(strategy))
    return `${scenario.title}, played with ${definition.inWords}.\nStep it to see which run each worker gets.`;
  return scenario.summary;
}

/** The strategy and fencing a scenario opens with. */
export function defaultSettings(scenario: Scenario): Settings {
  return { strategy: scenario.defaultStrategy, fencing: scenario.defaultFencing };
}
