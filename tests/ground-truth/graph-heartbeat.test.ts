// heartbeat, every state (see state-graph.ts): 9,788 schedules, in the full ground truth only.
import { everyState } from './state-graph';

everyState('heartbeat');
