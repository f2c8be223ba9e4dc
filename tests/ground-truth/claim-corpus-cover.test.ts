// The claim corpus through the state-graph cover: two workers (see claim-corpus-cover.ts).
import { coverTheCorpus } from './claim-corpus-cover';

coverTheCorpus('two workers');
