/**
 * The README's figures for the naive race under "Exploring every schedule" are the explorer's own: the
 * same counts the lab's Every schedule panel and `npm run sim -- explore race` show (issue 31, 7.9).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exploreForLab } from '../../src/engine/explore';
import { defaultSettings, findScenario } from '../../src/scenarios';
import { labDatabase } from '../support/lab';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's paragraph on the naive race, as one line. */
function naiveRaceParagraph(): string {
  const start = README.indexOf('For the naive race:');
  expect(start, 'README.md has a sentence starting "For the naive race:"').toBeGreaterThan(0);
  return README.slice(start, README.indexOf('\n\n', start)).replace(/\s+/g, ' ');
}

/** A number the paragraph gives before `words`, e.g. figure("of them go on to duplicate execution and split"). */
function figure(paragraph: string, pattern: RegExp): number {
  const match = paragraph.match(pattern);
  expect(match, `README's naive race paragraph matches ${pattern}`).not.toBeNull();
  return Number(match![1]);
}

describe("README: the explorer's counts for the naive race", () => {
  it('are the counts the explorer finds', async () => {
    const scenario = findScenario('race')!;
    const exploration = await exploreForLab(await labDatabase(), scenario, { ...defaultSettings(scenario), strategy: 'naive', fencing: false });
    // Schedules whose outcome has exactly these anomaly kinds (a group's key: "double-claim:123 duplicate-execution:123").
    const count = (kinds: string[]) =>
      exploration.groups
        .filter((g) => {
          const has = (kind: string) => g.key.split(' ').some((part) => part.startsWith(`${kind}:`));
          return ['double-claim', 'duplicate-execution', 'split-ownership'].every((kind) => has(kind) === kinds.includes(kind));
        })
        .reduce((sum, g) => sum + g.count, 0);
    const text = naiveRaceParagraph();
    const said = {
      total: figure(text, /of all (\d+) schedules/),
      doubleClaim: figure(text, /(\d+) begin with a double claim/),
      all: figure(text, /(\d+) of them go on to duplicate execution and split ownership/),
      duplicateOnly: figure(text, /(\d+) to duplicate execution only/),
      splitOnly: figure(text, /(\d+) to split ownership only/),
      duplicateWithoutDoubleClaim: figure(text, /(\d+) more run it twice without a double claim/),
      none: figure(text, /(\d+) end with no anomaly/),
    };
    const found = {
      total: exploration.total,
      doubleClaim:
        count(['double-claim', 'duplicate-execution', 'split-ownership']) +
        count(['double-claim', 'duplicate-execution']) +
        count(['double-claim', 'split-ownership']) +
        count(['double-claim']),
      all: count(['double-claim', 'duplicate-execution', 'split-ownership']),
      duplicateOnly: count(['double-claim', 'duplicate-execution']),
      splitOnly: count(['double-claim', 'split-ownership']),
      duplicateWithoutDoubleClaim: count(['duplicate-execution']),
      none: count([]),
    };
    expect(exploration.coverage).toBe('all');
    expect(said).toEqual(found);
    // Every schedule is in one of the groups the paragraph names.
    expect(found.doubleClaim + found.duplicateWithoutDoubleClaim + found.none).toBe(found.total);
  }, 120_000);
});
