import { ClockControls } from './ClockControls';
import { OperatorControls } from './OperatorControls';
import { PlaybackControls } from './PlaybackControls';
import { WorkerControls } from './WorkerControls';

/**
 * The lab's controls. `part` splits them for a phone (App.tsx): the playback (Step first of all) above
 * the timeline, the clock's, the workers' and the operator's under it.
 */
export function Toolbar({ part = 'all' }: { part?: 'all' | 'playback' | 'rest' }) {
  return (
    <div className="toolbar">
      {part === 'rest' ? null : (
        <div className="toolbar-row">
          <PlaybackControls />
          {part === 'all' ? <ClockControls /> : null}
        </div>
      )}
      {part === 'playback' ? null : (
        <>
          {part === 'rest' ? (
            <div className="toolbar-row">
              <ClockControls />
            </div>
          ) : null}
          <div className="toolbar-row">
            <WorkerControls />
            <OperatorControls />
          </div>
        </>
      )}
    </div>
  );
}
