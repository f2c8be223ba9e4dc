// The race under plain FOR UPDATE (about 500 schedules): the claim whose waiter relocks the rows it had
// found, the one the PGlite adapter has to reproduce with care. SKIP LOCKED and NOWAIT on the race run in
// the full ground truth (npm run test:ground-truth:full); lock-wait.test.ts covers all five strategies.
import { everyInterleaving } from './exhaustive';

everyInterleaving('race', process.env.GROUND_TRUTH === 'full' ? ['skip-locked', 'for-update', 'nowait'] : ['for-update']);
