/**
 * One order of a spec's run as lanes: a lane per session, its steps left to right in the order they ran, a
 * step that waited for a lock drawn from where it began waiting to the step whose end released it. A cursor
 * steps through the order (Step / Back, or ← → while the focus is in the lanes, from the command table), and
 * the stop it stands at is said in words below: the SQL as it ran, the rows or the error it gave back, and
 * at the end the checks. Everything comes from the runner's record of each step (src/spec/run.ts StepTrace).
 */
import type { KeyboardEvent } from 'react';
import { useLab } from '../../store/react';
import { lastStop, orderOf } from '../../store/spec-lanes';
import type { SpecPermutationResult } from '../../store/spec-slice';
import { commandForKey, type SpecCursor, SPEC_LANE_COMMANDS, titleOf } from '../commands';
import { SpecLaneChart } from './SpecLaneChart';
import { SpecStopDetails } from './SpecStopDetails';

function CursorButton({ command, cursor }: { command: (typeof SPEC_LANE_COMMANDS)[keyof typeof SPEC_LANE_COMMANDS]; cursor: SpecCursor }) {
  return (
    <button type="button" onClick={() => command.perform(cursor)} disabled={!command.enabled(cursor)} title={titleOf(command)}>
      {command.label()}
    </button>
  );
}

function stopName(permutation: SpecPermutationResult, stop: number): string {
  if (stop === 0) return 'The start';
  if (stop > permutation.trace.length) return 'The end';
  return `Step ${stop} of ${permutation.steps.length}`;
}

export function SpecLanes({ permutation, sessions }: { permutation: SpecPermutationResult; sessions: readonly string[] }) {
  const wanted = useLab((s) => s.specRunner.shownStep);
  const go = useLab((s) => s.showSpecStep);
  const last = lastStop(permutation);
  const cursor: SpecCursor = { stop: Math.min(Math.max(wanted, 0), last), last, go };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const command = commandForKey(SPEC_LANE_COMMANDS, event.key);
    if (!command) return;
    // Taken here, so the document's lab keys do not step the scenario too (useKeyboard skips a taken key).
    event.preventDefault();
    if (command.enabled(cursor)) command.perform(cursor);
  };
  const order = orderOf(permutation);
  return (
    <section className="spec-lanes" aria-labelledby="spec-lanes-title" onKeyDown={onKeyDown}>
      <h4 id="spec-lanes-title">
        Step through the order <code>{order}</code>
      </h4>
      <p className="spec-lanes-intro">
        One lane per session. Each dot is a step, in the order the steps ran; a dashed bar is a step waiting for a row lock another session holds, up to the
        step whose end released it. Open another order below to see its lanes.
      </p>
      <div className="spec-lanes-controls">
        <CursorButton command={SPEC_LANE_COMMANDS.back} cursor={cursor} />
        <CursorButton command={SPEC_LANE_COMMANDS.step} cursor={cursor} />
        <span className="spec-lanes-at" data-testid="spec-lanes-at">
          {stopName(permutation, cursor.stop)}
        </span>
      </div>
      <SpecLaneChart permutation={permutation} sessions={sessions} stop={cursor.stop} />
      <SpecStopDetails permutation={permutation} stop={cursor.stop} />
    </section>
  );
}
