// The production queues' claims on the cancel scenarios, every state (see queue-graphs.ts).
import { queueGraphs } from './queue-graphs';

queueGraphs('cancel');
