// The race and the held claim under all five strategies, fencing on and off, every state (see state-graph.ts): about 1,000 schedules.
import { everyState } from './state-graph';

everyState('race');
everyState('lock-wait');
