/**
 * Issue 31, "Start here": a first visit opens the story (one card, one move), with only the controls its
 * scenario uses on the first screen; a link shows every control its schedule uses; "All controls" shows
 * everything and is remembered. Counted as a learner sees the page: the controls on the first screen.
 */
import type { Page } from '@playwright/test';
import { START_CARD } from '../../src/lessons/start-card';
import { controlsAboveTheFold } from '../support/above-the-fold';
import { expect, openLab, outcome, slider, test, timeline, waitReady } from './fixtures';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The issue's bound on the first screen's controls. */
const MOST_CONTROLS = 12;

const startCard = (page: Page) => page.getByRole('region', { name: /Start here/ });
const allControls = (page: Page) => page.getByRole('switch', { name: 'All controls' });

/** What appears words for words twice among the first screen's controls (by accessible name, and by visible text). */
function repeated(values: readonly string[]): string[] {
  return [...new Set(values.filter((value, index) => value !== '' && values.indexOf(value) !== index))];
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('a first visit opens the story: the start card, at most 12 controls on the first screen, none named twice, the timeline in view', async ({ page }) => {
      await openLab(page);
      // Counted once the page has settled (the start card and the lab's first frames drawn).
      await expect(page.getByRole('article', { name: 'Worker A' })).toBeVisible();
      const controls = await page.evaluate(controlsAboveTheFold);
      const listed = controls.map((c) => `${c.role} "${c.name}"`).join(', ');
      expect(controls.length, `the first screen's controls: ${listed}`).toBeLessThanOrEqual(MOST_CONTROLS);
      expect(repeated(controls.map((c) => c.name)), `names used twice among: ${listed}`).toEqual([]);
      const labels = controls.filter((c) => !c.code).map((c) => c.text);
      expect(repeated(labels), `labels read twice among: ${labels.map((text) => `"${text}"`).join(', ')}`).toEqual([]);
      // The story opens the page: the card, whose one move is among them; and the timeline starts on the first screen.
      await expect(startCard(page).getByRole('heading')).toHaveText('Start here: two workers, one queue');
      expect(controls.map((c) => c.name)).toContain(START_CARD.action.label);
      const box = (await timeline(page).boundingBox())!;
      expect(box.y).toBeLessThan(size.height - 120);
    });

    test("the card's move steps worker A, draws the step, and the card does not come back: a reload lands where the learner was", async ({ page }) => {
      await openLab(page);
      await startCard(page).getByRole('button', { name: START_CARD.action.label }).click();
      await expect(slider(page)).toHaveValue('1');
      await expect(outcome(page)).toContainText('A read run 123 as pending');
      await expect(timeline(page).locator('path.tl-mark[data-step="0"]')).toHaveCount(1);
      await expect(timeline(page).locator('path.tl-mark[data-step]')).toHaveCount(1);
      await expect(startCard(page)).toHaveCount(0);
      await page.reload();
      await waitReady(page);
      await expect(slider(page)).toHaveValue('1');
      await expect(outcome(page)).toContainText('A read run 123 as pending');
      await expect(startCard(page)).toHaveCount(0);
    });

    test('a link with clock moves and a crash shows the clock, the crash and fencing; the plain scenario does not', async ({ page }) => {
      await openLab(page);
      const lab = page.locator('#lab-top');
      // The race moves no clock and crashes nobody: those controls wait until something uses them.
      for (const name of ['Advance clock', 'Crash worker A', 'Pause worker A', 'Cancel run']) await expect(lab.getByRole('button', { name })).toHaveCount(0);
      await expect(lab.getByRole('switch', { name: 'Fencing' })).toHaveCount(0);
      await page.goto('/#scenario=race&strategy=naive&fencing=off&schedule=A,%2B30,crash:A,B&step=4');
      await expect(slider(page)).toHaveValue('4');
      await waitReady(page);
      for (const name of ['Advance clock', 'Crash worker B', 'Step worker B']) await expect(lab.getByRole('button', { name, exact: true })).toBeVisible();
      await expect(lab.getByRole('switch', { name: 'Fencing' })).toBeVisible();
      await expect(lab.getByRole('checkbox', { name: 'time to scale' })).toBeVisible();
      // Pausing is still not part of this link: its buttons stay folded away.
      await expect(lab.getByRole('button', { name: 'Pause worker A' })).toHaveCount(0);
    });

    test('with "All controls" on while the start card is open, no two controls in the lab share a name', async ({ page }) => {
      await openLab(page);
      await allControls(page).check();
      // Both moves on screen: the card's, and the toolbar's for each worker.
      await expect(startCard(page).getByRole('button', { name: START_CARD.action.label, exact: true })).toBeEnabled();
      await expect(page.getByRole('group', { name: 'Worker A' }).getByRole('button', { name: 'Step worker A', exact: true })).toBeVisible();
      const controls = await page.evaluate(controlsAboveTheFold, '#lab-top');
      const listed = controls.map((c) => `${c.role} "${c.name}"`).join(', ');
      // Each worker's buttons read "Pause", "Crash" in its own group; their names say whose.
      expect(repeated(controls.map((c) => c.name)), `names used twice among: ${listed}`).toEqual([]);
    });

    test('"All controls" shows every control, and a reload keeps it on', async ({ page }) => {
      await openLab(page);
      await startCard(page).getByRole('button', { name: 'Explore on my own' }).click();
      await expect(startCard(page)).toHaveCount(0);
      const lab = page.locator('#lab-top');
      await allControls(page).check();
      const everything = async () => {
        for (const name of ['Advance clock', 'Step worker A', 'Pause worker B', 'Crash worker A', 'Write a scenario…', 'Keyboard shortcuts'])
          await expect(lab.getByRole('button', { name, exact: true })).toBeVisible();
        await expect(lab.getByRole('switch', { name: 'Fencing' })).toBeVisible();
        await expect(lab.getByRole('combobox', { name: 'Speed' })).toBeVisible();
        await expect(lab.locator('summary', { hasText: 'Operator' })).toBeVisible();
        await expect(lab.locator('summary', { hasText: 'Export' })).toBeVisible();
      };
      await everything();
      await page.reload();
      await waitReady(page);
      await expect(allControls(page)).toBeChecked();
      // Dismissed, the card stays away.
      await expect(startCard(page)).toHaveCount(0);
      await everything();
    });
  });
}
