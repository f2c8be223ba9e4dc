// stuck-heartbeat, every state (see state-graph.ts): 11,636 schedules, in the full ground truth only.
import { everyState } from './state-graph';

everyState('stuck-heartbeat');
