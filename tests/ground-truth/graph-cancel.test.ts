// Durable cancellation and cancelling by killing, every state (see state-graph.ts): about 3,000 schedules, in the full ground truth only.
import { everyState } from './state-graph';

everyState('cancel-durable');
everyState('cancel-kill');
