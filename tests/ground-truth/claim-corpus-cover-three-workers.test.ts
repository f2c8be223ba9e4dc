// The claim corpus through the state-graph cover: three-workers (see claim-corpus-cover.ts).
import { coverTheCorpus } from './claim-corpus-cover';

coverTheCorpus('three-workers');
