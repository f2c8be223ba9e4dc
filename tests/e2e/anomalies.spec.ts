/**
 * The punchline named when it happens: the double claim in the outcome and the timeline's anomaly lane at
 * the step it is raised at, and worker cards that put what each worker believes beside what the row says,
 * with its program and the statement it runs next highlighted (a click on it steps the worker).
 */
import type { Page } from '@playwright/test';
import { expect, openLinkInPlace, outcome, runsTableAfter, sharedLabPage, shot, slider, stepTimes, test, timeline } from './fixtures';

const card = (page: Page, worker: string) => page.getByRole('article', { name: `Worker ${worker}` });
const program = (page: Page, worker: string) => card(page, worker).getByRole('list', { name: `${worker}'s program` });
/** The line of a worker's program its pointer is on (the next statement, or the one waiting for a lock). */
const pointer = (page: Page, worker: string) => program(page, worker).locator('li[aria-current="step"]');
const belief = (page: Page, worker: string, field: 'owner' | 'generation' | 'lease') => card(page, worker).locator(`tr[data-field="${field}"]`);
const laneLabels = (page: Page) => timeline(page).locator('text.tl-link-label');

// Each of these opens its own link (or several) and reads or steps the view it opens: one page, one
// Postgres start, opens them in turn as links followed in the tab.
test.describe('links opened in one page', () => {
  const lab = sharedLabPage();

  test("naive race: the double claim is named at B's claim, in the outcome and the anomaly lane", async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await stepTimes(page, 3);
    await runsTableAfter(page, 3);
    await expect(outcome(page)).not.toContainText('both believe');
    await expect(laneLabels(page).filter({ hasText: 'double claim' })).toHaveCount(0);
    await stepTimes(page, 1);
    await runsTableAfter(page, 4);
    await expect(outcome(page)).toContainText("Workers A and B both believe they own run 123: B claimed it while A's lease on it still had 60 s to run.");
    await expect(laneLabels(page).filter({ hasText: /^double claim/ })).toHaveCount(1);
    await expect(timeline(page)).toHaveAttribute('aria-label', /anomalies: double claim/);
    // Still one double claim, not a second, once the duplicate execution follows.
    await stepTimes(page, 2);
    await runsTableAfter(page, 6);
    await expect(outcome(page)).toContainText('Run 123 was executed by both A and B');
    await expect(laneLabels(page).filter({ hasText: /^double claim/ })).toHaveCount(1);
  });

  test('worker cards: waiting for a lock, crashed and done are said as such', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=lock-wait&strategy=for-update&fencing=on&schedule=A,B&step=2');
    await runsTableAfter(page, 2);
    // B's claim has started and waits: its line is marked as waiting, and it is not a button.
    await expect(pointer(page, 'B')).toContainText('Waiting: BEGIN; claim-for-update.sql WITH candidate AS (');
    await expect(pointer(page, 'B').getByRole('button')).toHaveCount(0);
    await expect(card(page, 'B')).toContainText('B waits in the marked line for the lock held by A.');
    await expect(pointer(page, 'A')).toContainText('Next: transaction-commit.sql COMMIT');
    await openLinkInPlace(page, 'scenario=crash-orphan&strategy=skip-locked&fencing=on&schedule=A,A,crash:A&step=3');
    await runsTableAfter(page, 3);
    await expect(pointer(page, 'A')).toHaveCount(0);
    await expect(card(page, 'A')).toContainText('A: crashed.');
    await openLinkInPlace(page, 'scenario=race&strategy=skip-locked&fencing=on&schedule=A,A,A,A,A,A,A&step=7');
    await expect(pointer(page, 'A')).toHaveCount(0);
    await expect(card(page, 'A')).toContainText('A: done.');
  });

  test('worker cards: A believes it owns run 123 while the row says B, marked ≠ in words; each card says what runs next', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await expect(pointer(page, 'A')).toContainText('Next: naive-select.sql');
    await stepTimes(page, 2);
    await runsTableAfter(page, 2);
    // Read, not claimed: no belief about a lease yet; the UPDATE comes next.
    await expect(card(page, 'A').locator('.belief')).toHaveCount(0);
    await expect(pointer(page, 'A')).toContainText('Next: naive-update.sql UPDATE runs');
    await stepTimes(page, 1);
    await runsTableAfter(page, 3);
    await expect(belief(page, 'A', 'owner')).toHaveText(/Owner\s*A\s*=\s*A/);
    await expect(card(page, 'A').locator('tr.disagrees')).toHaveCount(0);
    await stepTimes(page, 1);
    await runsTableAfter(page, 4);
    await expect(belief(page, 'A', 'owner')).toHaveClass(/disagrees/);
    await expect(belief(page, 'A', 'owner')).toHaveText(/Owner\s*A\s*≠\s*B\s*\(differs\)/);
    await expect(belief(page, 'A', 'generation')).toHaveText(/Generation\s*18\s*≠\s*19/);
    await expect(belief(page, 'A', 'lease')).not.toHaveClass(/disagrees/);
    await expect(card(page, 'A')).toContainText('≠ The row disagrees on owner, generation.');
    await expect(pointer(page, 'A')).toContainText('Next: if model calls left (2 in all): work-unfenced.sql UPDATE runs');
    // B's belief is the row's.
    await expect(belief(page, 'B', 'owner')).toHaveText(/Owner\s*B\s*=\s*B/);
    await expect(card(page, 'B').locator('tr.disagrees')).toHaveCount(0);
  });

  test("worker cards: each worker's whole program, and a click on its highlighted line steps that worker", async () => {
    const page = lab();
    const testInfo = test.info();
    await openLinkInPlace(page, 'scenario=heartbeat&strategy=skip-locked&fencing=on&schedule=&step=0');
    // The claim, then the loop: the cancel check, the heartbeat, the model call and the completion, by file.
    const lines = (await program(page, 'A').locator('li').allTextContents()).map((text) => text.replace(/^[▶‖]?(Next: )?/, ''));
    expect(lines.map((text) => text.replace(' WITH candidate AS (', ''))).toEqual([
      'BEGIN; claim-skip-locked.sql → none: stop',
      'transaction-commit.sql',
      'until the run is done:',
      'if cancel seen: cancel-ack-fenced.sql → stop',
      expect.stringMatching(/^if heartbeat due \(every \d+ s\): heartbeat-fenced\.sql$/),
      expect.stringMatching(/^if model calls left \(\d+ in all\): work-fenced\.sql$/),
      'else: complete-fenced.sql → done',
    ]);
    await expect(pointer(page, 'A')).toContainText('claim-skip-locked.sql');
    await shot(card(page, 'A'), testInfo.outputPath('worker-program-before.png'));

    // Its highlighted line is a button: it steps A (not B), and the pointer moves on to the COMMIT.
    await pointer(page, 'A').getByRole('button', { name: 'Step A: run claim-skip-locked.sql' }).click();
    await expect(slider(page)).toHaveValue('1');
    await runsTableAfter(page, 1);
    await expect(card(page, 'A').locator('.phase')).toHaveText('in-transaction');
    await expect(card(page, 'B').locator('.phase')).toHaveText('ready');
    await expect(pointer(page, 'A')).toContainText('Next: transaction-commit.sql COMMIT');
    await expect(pointer(page, 'B')).toContainText('Next: BEGIN; claim-skip-locked.sql');
    await pointer(page, 'A').getByRole('button', { name: 'Step A: run transaction-commit.sql' }).click();
    await expect(slider(page)).toHaveValue('2');
    await expect(pointer(page, 'A')).toContainText(/Next: if (heartbeat due|model calls left)/);
    await shot(page.getByRole('region', { name: 'Workers' }), testInfo.outputPath('worker-program-after.png'));
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`worker cards fit at ${viewport.width}×${viewport.height}`, async () => {
      const page = lab();
      const testInfo = test.info();
      // At the window size of this test, and back to the page's own after it: the other tests read the cards at that one.
      const size = page.viewportSize();
      await page.setViewportSize(viewport);
      await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B&step=4');
      await runsTableAfter(page, 4);
      await expect(belief(page, 'A', 'owner')).toHaveClass(/disagrees/);
      const cards = page.getByRole('region', { name: 'Workers' });
      for (const worker of ['A', 'B']) {
        const box = await card(page, worker).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
        expect(box.scroll, `card ${worker} overflows`).toBeLessThanOrEqual(box.client);
        expect(box.right).toBeLessThanOrEqual(viewport.width);
      }
      if (process.env.E2E_SHOTS) {
        const file = testInfo.outputPath(`worker-cards-${viewport.width}x${viewport.height}.png`);
        await cards.screenshot({ path: file });
        await testInfo.attach('worker cards', { path: file, contentType: 'image/png' });
      }
      if (size) await page.setViewportSize(size);
    });
  }
});
