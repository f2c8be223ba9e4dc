// The production queues' claims on the stuck-heartbeat scenarios, every state (see queue-graphs.ts).
import { queueGraphs } from './queue-graphs';

queueGraphs('stuck-heartbeat');
