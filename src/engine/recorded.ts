/**
 * A whole schedule's trace for the lesson's questions: played on the lab's database, or, at a level above
 * READ COMMITTED on PGlite (which cannot run it: one session), the trace recorded on a real server for that
 * scenario, claim and level (recordings/), as far as the schedule follows it. Never a run PGlite makes up.
 */
import type { LabDatabase } from '../db/port';
import { offTheRecording, recordingIdFor } from '../recordings';
import { findScenario } from '../scenarios';
import { anomaliesAfter } from '../sim/anomalies';
import type { Scenario, Settings, Trace } from '../sim/types';
import { runSchedule } from './run';

/** The recorded trace of `schedule` (a beginning of the recording's own); an error naming why when there is none. */
export async function recordedTrace(scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<Trace> {
  // A question's scenario may be a copy of the recorded one under another id (base~tag): the same scenario.
  const baseId = scenario.id.split('~')[0]!;
  const base = findScenario(baseId);
  const sameScenario = base !== undefined && JSON.stringify({ ...scenario, id: base.id, title: base.title }) === JSON.stringify(base);
  const id = sameScenario ? recordingIdFor(baseId, settings) : null;
  if (!id)
    throw new Error(
      `no trace of ${scenario.id} at ${settings.isolation ?? 'read-committed'} with this claim was recorded on PostgreSQL, and PGlite cannot run it`,
    );
  // Fetched when first asked for: every recorded step, most of a hundred kilobytes.
  const { recording } = await import('../recordings/files');
  const played = recording(id);
  schedule.forEach((token, index) => {
    if (played.schedule[index] !== token) throw new Error(`step ${index + 1} (${token}): ${offTheRecording(played, played.schedule[index])}`);
  });
  const steps = played.steps.filter((step) => step.tokenIndex < schedule.length);
  return {
    scenario: scenario.id,
    settings: { ...played.settings },
    schedule: [...schedule],
    steps,
    anomalies: schedule.length === played.schedule.length ? played.anomalies : anomaliesAfter(steps, steps.length),
    finalRuns: steps.at(-1)?.runs ?? played.initialRuns,
    database: 'postgres',
  };
}

/** A question's run: recorded where the level needs a server the lab is not on, else played on `db` as written. */
export function playForQuestion(db: LabDatabase, scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<Trace> {
  if (settings.isolation && db.kind === 'pglite') return recordedTrace(scenario, settings, schedule);
  return runSchedule(db, scenario, settings, schedule, { onInapplicable: 'error' });
}
