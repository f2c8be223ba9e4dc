// race under the locking claims: about 1,500 schedules.
import { everyInterleaving } from './exhaustive';

everyInterleaving('race', ['skip-locked', 'for-update', 'nowait']);
