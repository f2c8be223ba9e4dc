/** Back moves a cursor through the recorded trace; a link restores exactly the same view. */
import { BASE_URL } from '../../playwright.config';
import {
  expect,
  openLab,
  openLinkInPlace,
  outcome,
  position,
  runsTableAfter,
  sharedLabPage,
  slider,
  stepButton,
  stepTimes,
  test,
  timelineView,
  waitReady,
} from './fixtures';
import { workerStep } from './disclosure';

// Each link names its whole view (scenario, strategy, fencing, schedule) and the tests move only the cursor
// and the schedule, which the next link replaces: one page, one Postgres start, for the three.
test.describe('links followed in one tab', () => {
  const lab = sharedLabPage();

  test('Back and Step move the cursor without changing the trace', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await stepTimes(page, 7);
    const at7 = await timelineView(page);
    expect(at7.label).toContain('7 of 7 steps shown');
    const runsAt4 = await (async () => {
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await expect(slider(page)).toHaveValue('4');
      return runsTableAfter(page, 4);
    })();
    await expect.poll(async () => (await timelineView(page)).label).toContain('4 of 7 steps shown');
    await expect(outcome(page)).toContainText('Step 4:');
    // Forward again: the recorded steps come back, nothing is replayed.
    await stepButton(page).click();
    await expect(slider(page)).toHaveValue('5');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    expect(await runsTableAfter(page, 4)).toBe(runsAt4);
  });

  test('a link opens exactly the same view', async ({ browser }) => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await stepTimes(page, 7);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    // The whole link, not only its step: the address follows the view a little later, and on a busy
    // machine the address of step 5 on the way up (schedule A,B,A,B,A) can still be there.
    await expect(page).toHaveURL(/schedule=A,B,A,B,A,B,A&step=5$/);
    const url = page.url();
    // The panels draw one task behind the store: read them once they show step 5.
    const runs = await runsTableAfter(page, 5);
    await expect(outcome(page)).toContainText('Step 5:');
    await expect.poll(async () => (await timelineView(page)).label).toContain('5 of 7 steps shown');
    const view = await timelineView(page);
    const said = await outcome(page).innerText();

    const other = await browser.newPage({ baseURL: BASE_URL, viewport: { width: 1280, height: 720 } });
    await other.goto(url);
    await waitReady(other);
    await expect(slider(other)).toHaveValue('5');
    await expect.poll(() => timelineView(other)).toEqual(view);
    expect(await runsTableAfter(other, 5)).toBe(runs);
    await expect.poll(() => outcome(other).innerText()).toBe(said);
    await other.close();
  });

  test('stepping another worker after Back cuts the schedule there', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B');
    await expect(slider(page)).toHaveValue('4');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await workerStep(page, 'A').click();
    await expect(page).toHaveURL(/schedule=A,A&step=2$/);
    expect(await position(page)).toBe(2);
    expect((await timelineView(page)).label).toContain('2 of 2 steps shown');
  });
});

test('a reload without a link comes back to the same place', async ({ page }) => {
  await openLab(page);
  await page.getByLabel('Scenario').selectOption('lock-wait');
  await page.getByLabel('Strategy').selectOption('for-update');
  await stepTimes(page, 3);
  await page.goto('/');
  await waitReady(page);
  await expect(page.getByLabel('Scenario')).toHaveValue('lock-wait');
  await expect(page.getByLabel('Strategy')).toHaveValue('for-update');
  await expect(slider(page)).toHaveValue('3');
});
