// The crash, every state (see state-graph.ts). In a file of its own so that it and the pause run side by side.
import { everyState } from './state-graph';

everyState('crash-orphan');
