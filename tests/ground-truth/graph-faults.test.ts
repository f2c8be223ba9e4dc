// The crash and the pause, every state (see state-graph.ts): about 4,200 schedules.
import { everyState } from './state-graph';

everyState('crash-orphan');
everyState('paused-worker');
