// heartbeat, every state (see state-graph.ts): 5,482 schedules in npm test, 9,788 with the naive claim in the full run.
import { everyState } from './state-graph';

everyState('heartbeat');
