// Durable cancellation and cancelling by killing, every state (see state-graph.ts): about 3,000 schedules.
import { everyState } from './state-graph';

everyState('cancel-durable');
everyState('cancel-kill');
