// The claim corpus through the state-graph cover: crash-orphan (see claim-corpus-cover.ts).
import { coverTheCorpus } from './claim-corpus-cover';

coverTheCorpus('crash-orphan');
