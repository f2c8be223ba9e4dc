// race under the strategies without row locks: 1,312 schedules.
import { everyInterleaving } from './exhaustive';

everyInterleaving('race', ['naive', 'cas']);
