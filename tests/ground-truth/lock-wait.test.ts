// lock-wait under every strategy: about 780 schedules.
import { STRATEGIES } from '../../src/sim/types';
import { everyInterleaving } from './exhaustive';

everyInterleaving('lock-wait', STRATEGIES);
