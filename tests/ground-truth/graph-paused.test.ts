// The pause past the lease, every state (see state-graph.ts).
import { everyState } from './state-graph';

everyState('paused-worker');
