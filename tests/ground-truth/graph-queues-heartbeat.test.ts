// The production queues' claims on the heartbeat scenarios, every state (see queue-graphs.ts).
import { queueGraphs } from './queue-graphs';

queueGraphs('heartbeat');
