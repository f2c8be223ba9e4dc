import { useMemo } from 'react';
import { findScenario } from '../../scenarios';
import { lanedFrom, reaperScenario } from '../../scenarios/reaper-lane';
import { useLab } from '../../store/react';
import { RoleEditor } from './RoleEditor';
import reaperStarter from './reaper-starter.sql?raw';

/** What the editor starts a reaper from: docs/examples/reaper.sql's statement, which plays as offered (it uses no $n to bind). */
const REAPER_STARTER = reaperStarter.trimEnd();

/**
 * The rescuer's one statement, the learner's own (check --reaper): folded away, since most claims need none
 * and a first look at the editor should show only the claim and its writes.
 */
export function ReaperEditor() {
  const text = useLab((s) => s.yourSql.draft?.reaper ?? null);
  const edit = useLab((s) => s.editYourSql);
  return (
    <details className="your-sql-write your-sql-reaper" open={text !== null}>
      <summary>Reaper (optional)</summary>
      <p className="your-sql-type">
        A reaper runs apart from the workers, as on a timer, and puts runs whose lease ran out back to pending. A claim that takes pending runs only needs one:
        without it, a crashed worker's run is never taken again. Write it as one UPDATE of runs; the lab runs it on the rescuer's own session at each{' '}
        <code>rescue</code> step. It passes the reaper no values: give each $n it uses a value below.
      </p>
      <label className="your-sql-own">
        <input type="checkbox" checked={text !== null} onChange={(e) => edit('reaper', e.target.checked ? REAPER_STARTER : null)} />
        Write my own reaper
      </label>
      {text !== null ? <LaneLine /> : null}
      {text !== null ? <RoleEditor of="reaper" text={text} onChange={(next) => edit('reaper', next)} /> : null}
    </details>
  );
}

/** Where the reaper runs when the scenario has no rescuer's lane of its own: the copy with the lane check --reaper adds. */
function LaneLine() {
  const scenarioId = useLab((s) => s.scenarioId);
  const line = useMemo(() => laneLine(scenarioId), [scenarioId]);
  return line === null ? null : <p className="your-sql-type your-sql-lane">{line}</p>;
}

function laneLine(scenarioId: string): string | null {
  const from = lanedFrom(scenarioId);
  if (from !== undefined)
    return `Plays on a copy of "${from.title}" with a rescuer's lane added: your reaper runs there at a rescue step after each step of the clock (as check --reaper plays it).`;
  const scenario = findScenario(scenarioId);
  if (scenario === undefined || scenario.rescuer !== undefined) return null;
  return reaperScenario(scenario) === null
    ? `"${scenario.title}" has no rescuer's lane and cannot be given one: your reaper does not play here.`
    : `"${scenario.title}" has no rescuer's lane: on Apply the lab adds one, a row on the timeline where your reaper runs at a rescue step after each step of the clock (as check --reaper plays it).`;
}
