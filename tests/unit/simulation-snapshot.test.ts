/**
 * A walk's marks (engine/enumerate.ts Walk.mark) keep the simulation's state by Simulation.snapshot(), whose
 * fields are listed by hand: a field added to the simulation but not to the snapshot would make a restored
 * walk carry the later state's value. Every field but the simulation's fixed inputs must be in it.
 */
import { expect, it } from 'vitest';
import type { LabDatabase } from '../../src/db/port';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

it("a simulation's snapshot holds every field that changes as it plays", () => {
  // The constructor asks the database only its kind.
  const db = { kind: 'pglite' } as LabDatabase;
  const sim = new Simulation(db, findScenario('race')!, { strategy: 'skip-locked', fencing: true });
  const fixed = new Set(['db', 'scenario', 'settings', 'userFacing']);
  const changing = Object.keys(sim).filter((key) => !fixed.has(key));
  const snapshot = sim.snapshot();
  expect(['steps', ...Object.keys(snapshot.rest as object)].sort()).toEqual(changing.sort());
});
