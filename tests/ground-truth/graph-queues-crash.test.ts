// The production queues' claims on the crash scenarios, every state (see queue-graphs.ts).
import { queueGraphs } from './queue-graphs';

queueGraphs('crash');
