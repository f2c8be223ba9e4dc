// Each incident under its queue and under its fix: every state in the full ground truth (but a few, by script), the script in npm test (see queue-graphs.ts).
import { incidentGraphs } from './queue-graphs';

incidentGraphs();
