// The per-tenant cap's claim on its own scenario only (not under every claim, nor every scenario under it),
// every step from every state (see state-graph.ts): fencing on in npm test (the claim is what it is about), both in the full ground truth.
import { LIMIT_STRATEGY_IDS } from '../../src/strategies';
import { everyState } from './state-graph';

everyState('tenant-backlog', LIMIT_STRATEGY_IDS, { group: 'limits', npmTestFencing: true });
