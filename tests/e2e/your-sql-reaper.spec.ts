/**
 * A reaper of the learner's own in "Your SQL" (issue 33 item 6, the page's side of check --reaper): crash-orphan,
 * which has no rescuer's lane, a claim that takes pending runs only, and the reaper written in the editor's folded
 * Reaper section, played on the copy with the lane check --reaper gives it (scenarios/reaper-lane.ts): first as
 * offered, then with its lease margin as a parameter ('0 seconds': lease_expires_at < now() holds one second after
 * the lease ran out, at the last rescue step). Without the reaper, A's
 * run is stranded; with it, the rescuer puts run 123 back and B finishes it.
 */
import type { Page } from '@playwright/test';
import { expect, notices, openLab, runsTable, shot, slider, stepToEnd, test, timeline } from './fixtures';
import { cutSelectText } from './label-boxes';

const PENDING_ONLY = `WITH candidate AS (
  SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
)
UPDATE runs
SET status = 'running', lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1, heartbeat_at = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested`;

const editor = (page: Page) => page.getByRole('region', { name: 'Your SQL' });

test("a reaper written in Your SQL, its lease margin a parameter, rescues the crashed worker's run", async ({ page }) => {
  await openLab(page, `scenario=crash-orphan&strategy=your-sql&fencing=on&claim=${encodeURIComponent(PENDING_ONLY)}`);
  await expect(editor(page).locator('.your-sql-status')).toHaveText('Playing your SQL.');
  await stepToEnd(page);
  await expect(runsTable(page)).toContainText(/123\s*running\s*A/);

  const reaper = editor(page).locator('details.your-sql-reaper');
  await expect(reaper).not.toHaveAttribute('open', '');
  await reaper.getByText('Reaper (optional)').click();
  await reaper.getByRole('checkbox', { name: 'Write my own reaper' }).check();
  // The built-in scenario has no rescuer's lane: the reaper plays on the copy with the lane check --reaper gives it.
  const lane = reaper.locator('.your-sql-lane');
  await expect(lane).toContainText("has no rescuer's lane: on Apply the lab adds one");
  // The statement the section offers plays as it is: it binds nothing.
  await editor(page).getByRole('button', { name: 'Apply' }).click();
  await expect(editor(page).locator('.your-sql-status')).toHaveText('Playing your SQL.');
  await expect(page).toHaveURL(/^[^#]*#scenario=authored-[^&]*&sc=.*&reaper=UPDATE%20runs/);
  await expect(lane).toContainText('Plays on a copy of "A crashes');
  // The picker names the copy in words that fit it whole, in a wide window and on a phone.
  const size = page.viewportSize();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => cutSelectText(page.locator('select#scenario')), `${width}×${height}`).toBeNull();
  }
  if (size) await page.setViewportSize(size);
  await stepToEnd(page);
  const svg = timeline(page);
  await expect(svg.locator('text.tl-lane-small', { hasText: 'rescuer' })).toHaveCount(1);
  await expect(runsTable(page)).toContainText(/123\s*done.*answer from B/);

  // Its margin written as a parameter: the row asks for it, and bound, the reaper rescues as before.
  const text = page.getByLabel('Your reaper', { exact: true });
  await text.fill(`${await text.inputValue()} - $1::interval`);
  const row = reaper.getByRole('group', { name: 'Parameters of your reaper' });
  await row.locator('input').first().fill("'0 seconds'");
  await editor(page).getByRole('button', { name: 'Apply' }).click();
  await expect(editor(page).locator('.your-sql-status')).toHaveText('Playing your SQL.');
  await expect(page).toHaveURL(/&reaper=UPDATE%20runs[^&]*&params=reaper:1=/);
  await stepToEnd(page);
  await expect(runsTable(page)).toContainText(/123\s*done.*answer from B/);
  await shot(editor(page), 'test-results/your-sql-reaper.png');

  // A link written by hand, naming the built-in scenario and carrying the reaper, counts its steps as written:
  // step=6 is just after its sixth step (+31), the rescue after +30 shown and the reaper's turn after +31 next.
  const written = `claim=${encodeURIComponent(PENDING_ONLY)}&reaper=${encodeURIComponent(await text.inputValue())}&params=${encodeURIComponent("reaper:1='0 seconds'")}`;
  await page.goto(`/#scenario=crash-orphan&strategy=your-sql&fencing=on&${written}&schedule=A,A,A,crash:A,%2B30,%2B31,B,B&step=6`);
  await expect(slider(page)).toHaveAttribute('aria-valuetext', 'step 7 of 10');
  await expect(notices(page)).not.toContainText('could not be opened exactly');
  // The link the page writes back carries the lane, and the same place in its own count.
  await expect(page).toHaveURL(/#scenario=authored-[^&]*&sc=[^&]*&strategy=your-sql&fencing=on&schedule=A,A,A,crash:A,\+30,rescue,\+31,rescue,B,B&step=7&/);

  // That link with its reaper cut out by hand plays the built-in scenario without the reaper's turns, and still
  // counts them: its step 7 (+31) is the 6th step played.
  const cut = page
    .url()
    .replace(/&reaper=[^&]*/, '')
    .replace(/&params=[^&]*/, '');
  await page.goto(cut);
  await expect(slider(page)).toHaveAttribute('aria-valuetext', 'step 6 of 8');
  await expect(page).toHaveURL(/#scenario=crash-orphan&strategy=your-sql&fencing=on&schedule=A,A,A,crash:A,\+30,\+31,B,B&step=6&/);
  await expect(notices(page)).not.toContainText('could not be opened exactly');
});
