import { findScenario } from '../../src/scenarios';
import type { Scenario } from '../../src/sim/types';

/**
 * crash-orphan with A's restart under its own name in the script, cut down as the explorer's tests are (one
 * model call, one claim attempt) and to worker A alone: the crash and the restart may fall anywhere among A's
 * steps, a claim's open transaction included.
 */
export const RESTARTS: Scenario = {
  ...findScenario('crash-orphan')!,
  workers: [{ id: 'A' }],
  workSteps: 1,
  maxClaimAttempts: 1,
  script: ['A', 'A', 'crash:A', 'restart:A', '+61'],
};
