/**
 * Bug 8 as a learner meets it: the two lines under the header describe the claim the lab is set to. Opened
 * on a link and changed with the Strategy picker, the summary follows the claim (scenarioSummary's words,
 * which tests/unit/scenario-summaries.test.ts checks against the engine).
 */
import type { Page } from '@playwright/test';
import { findScenario, scenarioSummary } from '../../src/scenarios';
import type { Strategy } from '../../src/sim/types';
import { STRATEGY_LABELS } from '../../src/sim/types';
import { expect, openLab, openLinkInPlace, test } from './fixtures';

const summary = (page: Page) => page.locator('#scenario-summary');
const shown = (scenarioId: string, strategy: Strategy) => scenarioSummary(findScenario(scenarioId)!, strategy).replace('\n', ' ');

test('the header summary names what the chosen claim does, on a link and after changing the claim', async ({ page }) => {
  // The cases bug 8 found: SKIP LOCKED explained under the naive claim, a reclaim the naive SELECT never makes.
  await openLab(page, 'scenario=three-workers&strategy=naive&fencing=off&schedule=&step=0');
  await expect(summary(page)).toHaveText(shown('three-workers', 'naive'));
  await expect(summary(page)).not.toContainText('SKIP LOCKED');

  // Each next link is followed in the tab: the summary follows it, on the Postgres already started.
  await openLinkInPlace(page, 'scenario=crash-orphan&strategy=naive&fencing=on&schedule=&step=0');
  await expect(summary(page)).toHaveText(shown('crash-orphan', 'naive'));
  await expect(summary(page)).toContainText('stranded');

  // The race under every claim: only the naive one says both workers claim run 123.
  await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
  await expect(summary(page)).toContainText('both claim it');
  const picker = page.getByRole('combobox', { name: 'Strategy', exact: true });
  for (const strategy of ['cas', 'skip-locked', 'for-update', 'nowait'] as const) {
    await picker.selectOption({ label: STRATEGY_LABELS[strategy] });
    await expect(summary(page)).toHaveText(shown('race', strategy));
    await expect(summary(page)).toContainText('takes run 124');
  }
});
