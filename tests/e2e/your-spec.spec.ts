/**
 * "Your own schema" in the page: a spec pasted into Your SQL runs in the engine's Web Worker on a PGlite of
 * its own; the page shows the verdict, a refused order in one line with the command for a server, and each
 * order in the isolation tester's text. The learner's scenario stands as it was, and a spec that does not
 * parse is one line naming where.
 */
import { expectNoSeriousViolationsInBothThemes, seriousViolations } from './axe';
import type { Page } from '@playwright/test';
import lockWait from '../../docs/examples/lock-wait.spec?raw';
import { showAllControls } from './disclosure';
import { expect, openLab, runsTableAfter, shot, stepTimes, test, waitReady } from './fixtures';

const START = 'scenario=race&strategy=naive&fencing=off&schedule=&step=0';
const editor = (page: Page) => page.getByRole('region', { name: 'Your SQL' });
const specPanel = (page: Page) => page.getByRole('region', { name: 'Your own schema: check a spec' });
const specText = (page: Page) => page.getByLabel('Your spec', { exact: true });
const runButton = (page: Page) => specPanel(page).getByRole('button', { name: 'Run every order' });

/** lock-wait.spec, three orders: one that runs, one PGlite refuses (B waited while A committed), one that cannot happen. */
const THREE_ORDERS = `${lockWait}
permutation a_claim a_work a_commit b_claim b_work b_commit
permutation a_claim a_work b_claim a_commit b_work b_commit
permutation a_claim b_claim b_work a_work a_commit b_commit
`;

test("paste a spec, run it: the verdict, a refused order with the server's command, each order's text; the scenario is untouched", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, START);
  await stepTimes(page, 3);
  const before = await runsTableAfter(page, 3);
  await page.getByLabel('Strategy', { exact: true }).selectOption('your-sql');
  await expect(editor(page)).toBeVisible();
  // It starts from the lab's race as a spec PGlite follows.
  await expect(specText(page)).toHaveValue(/session B/);

  await specText(page).fill(THREE_ORDERS);
  await runButton(page).click();
  const results = page.getByTestId('spec-results');
  await expect(results).toBeVisible({ timeout: 60_000 });
  await expect(results.locator('.your-spec-verdict')).toHaveText(/No check broke in the 2 orders PGlite followed; 1 refused.*exit 2/);
  const refused = results.locator('.your-spec-refused li');
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText('a_claim a_work b_claim a_commit b_work b_commit: step b_claim waited while another session committed writes');
  await expect(refused).toContainText('npm run sim -- spec FILE.spec --permutation "a_claim a_work b_claim a_commit b_work b_commit" --db postgres://…');
  await results.getByText('The whole output, to diff with an expected file').click();
  const whole = results.getByRole('region', { name: 'The whole output' });
  await expect(whole).toContainText('Parsed test spec with 2 sessions');
  await expect(whole).toContainText('step b_claim: WITH candidate AS');
  await expect(whole).toContainText('<waiting ...>');
  await expect(whole).toContainText('invalid permutation detected');
  await expect(whole).toContainText('refused on PGlite: step b_claim waited');

  // The learner's scenario: the same runs table at the same step.
  expect(await runsTableAfter(page, 3)).toBe(before);

  // No order broke a check: the first PGlite followed is opened, with its lanes.
  await expect(results.locator('.your-spec-orders details[open] summary')).toContainText('a_claim a_work a_commit b_claim b_work b_commit');
  await expect(results.getByRole('region', { name: 'Step through the order a_claim a_work a_commit b_claim b_work b_commit' })).toBeVisible();
  await expectNoSeriousViolationsInBothThemes(page, '.your-spec');
  await shot(specPanel(page), testInfo.outputPath('your-spec-1440.png'));
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await specPanel(page).evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(specPanel(page), testInfo.outputPath('your-spec-390.png'));

  // A spec that does not parse: one line naming its line.
  await specText(page).fill(THREE_ORDERS.replace('session B', 'sesion B'));
  await runButton(page).click();
  await expect(specPanel(page).getByRole('alert')).toHaveText(/^Your spec: line \d+, column 1: unexpected "sesion"$/);
});

test("a spec travels in the copied link: a fresh browser opens it unrun (then its order, at the lanes' step); a reload brings back the draft; too long for a link is said in one line", async ({
  page,
  browser,
}, testInfo) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, START);
  await showAllControls(page);
  await page.getByLabel('Strategy', { exact: true }).selectOption('your-sql');
  const mine = `${THREE_ORDERS}\n# mine: “the lock-wait, as I wrote it”\n`;
  await specText(page).fill(mine);
  // The address carries the spec once it is compressed (asynchronously), and the order the learner opened.
  await expect(page).toHaveURL(/&spec=1\./);
  await runButton(page).click();
  const lastOrder = 'a_claim b_claim b_work a_work a_commit b_commit';
  await page.getByTestId('spec-results').locator('summary', { hasText: lastOrder }).click();
  await expect(page).toHaveURL(/&specorder=a_claim%20b_claim%20b_work%20a_work%20a_commit%20b_commit&spec=1\./);
  // Its lanes, two steps on: the link carries where they stand.
  const lanes = page.getByRole('region', { name: `Step through the order ${lastOrder}` });
  await lanes.getByRole('button', { name: 'Step' }).click();
  await lanes.getByRole('button', { name: 'Step' }).click();
  await expect(page).toHaveURL(/&specorder=a_claim%20b_claim%20b_work%20a_work%20a_commit%20b_commit&specstep=2&spec=1\./);
  const copyLink = async () => {
    await page.locator('summary', { hasText: /^Export$/ }).click();
    await page.getByRole('button', { name: 'Copy link' }).click();
    return page.evaluate(() => navigator.clipboard.readText());
  };
  const link = await copyLink();
  expect(link).toMatch(/#scenario=race&.*&spec=1\./);

  // A fresh browser context: the spec is shown in Your SQL, nothing ran, nothing was stored.
  const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const other = await fresh.newPage();
  await other.goto(link);
  await waitReady(other);
  await expect(specText(other)).toHaveValue(mine);
  await expect(other.getByTestId('spec-results')).toHaveCount(0);
  await expect(specPanel(other).locator('.your-spec-status')).toHaveText('Opened from the link; nothing has run yet.');
  // The link is about the spec: its panel is brought into view (it sits below the lab).
  await expect(specText(other)).toBeInViewport();
  expect(await other.evaluate(() => localStorage.getItem('lease-lab:your-spec:v1'))).toBeNull();
  await shot(specPanel(other), testInfo.outputPath('spec-from-link-1440.png'));
  // Run by the learner: the order the link showed is the one opened.
  await runButton(other).click();
  const opened = other.getByTestId('spec-results').locator('.your-spec-orders details[open]');
  await expect(opened).toHaveCount(1, { timeout: 60_000 });
  await expect(opened.locator('summary')).toContainText(lastOrder);
  await expect(other.getByTestId('spec-lanes-at')).toHaveText('Step 2 of 6');
  await expect(other.getByTestId('spec-lane-details')).toContainText('It waits for a row lock another session holds, and never returns');
  await other.setViewportSize({ width: 390, height: 844 });
  expect(await specPanel(other).evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await shot(specPanel(other), testInfo.outputPath('spec-from-link-390.png'));
  await fresh.close();

  // The learner's own tab, reloaded at a link without the spec: the draft comes back.
  await page.goto(`/#${START}`);
  await page.reload();
  await waitReady(page);
  await page.getByLabel('Strategy', { exact: true }).selectOption('your-sql');
  await expect(specText(page)).toHaveValue(mine);

  // Too long for a link: Copy link says so in one line, and the address leaves the spec out.
  const noise = Array.from({ length: 700 }, (_, index) => `step s${index} { SELECT ${(index * 7919) % 100_003} AS c${(index * 104_729) % 99_991}; }`).join(
    '\n',
  );
  await specText(page).fill(`${mine}\nsession C\n${noise}\n`);
  await expect(page).not.toHaveURL(/&spec=/);
  expect(await copyLink()).not.toContain('spec=');
  await expect(page.locator('.notice', { hasText: 'The link leaves your spec out' })).toContainText('npm run sim -- spec FILE.spec');
});

/** A wait and what released it, an error, a broken check: two orders, the first the shortest broken. */
const WAITS = `setup { CREATE TABLE foo (id int PRIMARY KEY, data text NOT NULL); INSERT INTO foo VALUES (1, 'x'); }
teardown { DROP TABLE foo; }
session a
setup { BEGIN; }
step a1 { UPDATE foo SET data = 'a' WHERE id = 1; }
step a2 { ROLLBACK; }
session b
step b1 { UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data; }
step b2 { SELECT 1 / 0; }
check "b wrote" { SELECT id FROM foo WHERE data = 'xb' }
permutation a1 b1 a2 b2
permutation a1 a2 b1 b2
`;

test("an order's lanes: a wait up to the step that released it, an error, the checks; Step and Back (buttons and ← →) move the cursor, and the link carries it", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, START);
  await page.getByLabel('Strategy', { exact: true }).selectOption('your-sql');
  await specText(page).fill(WAITS);
  await runButton(page).click();
  const lanes = page.getByRole('region', { name: 'Step through the order a1 b1 a2 b2' });
  await expect(lanes).toBeVisible({ timeout: 60_000 });
  const at = lanes.getByTestId('spec-lanes-at');
  const details = lanes.getByTestId('spec-lane-details');
  await expect(at).toHaveText('The start');
  await expect(lanes.getByRole('button', { name: 'Back' })).toBeDisabled();
  await lanes.getByRole('button', { name: 'Step' }).click();
  await lanes.getByRole('button', { name: 'Step' }).click();
  await expect(at).toHaveText('Step 2 of 4');
  await expect(details).toContainText("UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data;");
  await expect(details).toContainText('It waits: another session holds a lock on a row it needs. It goes on when a2 (step 3) ends.');
  await expect(lanes.locator('text.spec-lane-answer', { hasText: 'waits…' })).toHaveCount(1);
  // → with the focus in the lanes steps the order, not the scenario above.
  await page.keyboard.press('ArrowRight');
  await expect(at).toHaveText('Step 3 of 4');
  await expect(details).toContainText('Its end released b1 (session b), which had waited since step 2. It returned:');
  await expect(details.getByRole('cell', { name: 'xb' })).toBeVisible();
  await expect(lanes.locator('text.spec-lane-answer', { hasText: 'after a2' })).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(details).toContainText('ERROR: division by zero');
  await page.keyboard.press('ArrowRight');
  await expect(at).toHaveText('The end');
  await expect(details).toContainText('“b wrote” broke:');
  await expect(lanes.getByRole('button', { name: 'Step' })).toBeDisabled();
  await lanes.getByRole('button', { name: 'Back' }).click();
  await page.keyboard.press('ArrowLeft');
  await expect(at).toHaveText('Step 3 of 4');
  await expect(page).toHaveURL(/&step=0&specstep=3&spec=1\./);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page, '.spec-lanes'), colorScheme).toEqual([]);
    await shot(lanes, testInfo.outputPath(`spec-lanes-1440-${colorScheme}.png`));
  }
  // Another order opens its own lanes, at its start.
  await page.getByTestId('spec-results').locator('summary', { hasText: 'a1 a2 b1 b2' }).click();
  await expect(page.getByRole('region', { name: 'Step through the order a1 a2 b1 b2' }).getByTestId('spec-lanes-at')).toHaveText('The start');
  await page.getByTestId('spec-results').locator('summary', { hasText: 'a1 b1 a2 b2' }).click();
  await lanes.getByRole('button', { name: 'Step' }).click();
  await lanes.getByRole('button', { name: 'Step' }).click();
  await expect(at).toHaveText('Step 2 of 4');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await specPanel(page).evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await shot(lanes, testInfo.outputPath('spec-lanes-390-dark.png'));
  await page.emulateMedia({ colorScheme: 'light' });
  await shot(lanes, testInfo.outputPath('spec-lanes-390-light.png'));

  // The link carries the step (specstep=2): a fresh browser opens there, in the test above; a bad one, spec-link.test.ts.
  // The address follows the cursor once the store has written it: waited for, not read at once.
  await expect(page).toHaveURL(/&specorder=a1%20b1%20a2%20b2&specstep=2&spec=1\./);
});
