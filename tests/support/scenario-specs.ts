import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioSpec } from '../../src/scenarios/authored';
import { projectRoot } from './cli';

/**
 * A scenario as the page's editor writes it: two workers, one run, A crashes at 0:05 and B reclaims the run
 * once the 30 s lease is gone. Small on purpose, so `check` explores every schedule of it. A fresh copy
 * each call: tests derive variants from it.
 */
export function crashScenarioSpec(): ScenarioSpec {
  return JSON.parse(readFileSync(join(projectRoot, 'tests/fixtures/scenarios/crash-900.json'), 'utf8')) as ScenarioSpec;
}

/** The instructor's case: three workers, two tenants, a five-minute lease, A paused for six minutes past it. */
export function instructorScenarioSpec(): ScenarioSpec {
  return JSON.parse(readFileSync(join(projectRoot, 'tests/fixtures/scenarios/instructor-pause.json'), 'utf8')) as ScenarioSpec;
}
