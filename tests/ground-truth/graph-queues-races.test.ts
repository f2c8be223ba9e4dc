// The production queues' claims on the races scenarios, every state (see queue-graphs.ts).
import { queueGraphs } from './queue-graphs';

queueGraphs('races');
