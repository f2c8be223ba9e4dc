// The race under plain FOR UPDATE (about 500 schedules): the claim whose waiter relocks the rows it had
// found, the one the PGlite adapter has to reproduce with care. Every schedule of the race under SKIP LOCKED
// and NOWAIT is enumerated in the full ground truth (npm run test:ground-truth:full); npm test checks every
// state of the race under all five strategies (graph-races.test.ts).
import { everyInterleaving } from './exhaustive';

everyInterleaving('race', process.env.GROUND_TRUTH === 'full' ? ['skip-locked', 'for-update', 'nowait'] : ['for-update']);
