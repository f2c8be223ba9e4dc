// stuck-heartbeat, every state (see state-graph.ts): 6,792 schedules in npm test, 11,636 with the naive claim in the full run.
import { everyState } from './state-graph';

everyState('stuck-heartbeat');
