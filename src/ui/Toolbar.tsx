import { ClockControls } from './ClockControls';
import { useShownControls } from './hooks';
import { OperatorControls } from './OperatorControls';
import { PlaybackControls } from './PlaybackControls';
import { WorkerControls } from './WorkerControls';

/**
 * The lab's controls, those the scenario needs (store/disclosure.ts). `part` splits them for a phone
 * (App.tsx): the playback (Step first of all) above the timeline, the clock's, the workers' and the
 * operator's under it.
 */
export function Toolbar({ part = 'all' }: { part?: 'all' | 'playback' | 'rest' }) {
  const shown = useShownControls();
  const clock = shown.clock ? <ClockControls /> : null;
  const others = shown.workerGroups || shown.operator;
  if (part === 'rest' && !clock && !others) return null;
  return (
    <div className="toolbar">
      {part === 'rest' ? null : (
        <div className="toolbar-row">
          <PlaybackControls />
          {part === 'all' ? clock : null}
        </div>
      )}
      {part === 'playback' ? null : (
        <>
          {part === 'rest' && clock ? <div className="toolbar-row">{clock}</div> : null}
          {others ? (
            <div className="toolbar-row">
              {shown.workerGroups ? <WorkerControls /> : null}
              {shown.operator ? <OperatorControls /> : null}
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
