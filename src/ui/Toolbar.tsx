import { ClockControls } from './ClockControls';
import { OperatorControls } from './OperatorControls';
import { PlaybackControls } from './PlaybackControls';
import { WorkerControls } from './WorkerControls';

export function Toolbar() {
  return (
    <div className="toolbar">
      <div className="toolbar-row">
        <PlaybackControls />
        <ClockControls />
      </div>
      <div className="toolbar-row">
        <WorkerControls />
        <OperatorControls />
      </div>
    </div>
  );
}
