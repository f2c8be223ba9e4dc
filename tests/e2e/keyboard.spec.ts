/** The lab without a mouse: its keys, the help overlay, focus you can see, and keys left to fields. */
import { expect, openLab, openLinkInPlace, sharedLabPage, slider, test, waitReady } from './fixtures';
import { showAllControls } from './disclosure';

// Links that name their whole view, followed in one tab: the keys act on the view each link opens. In
// this order: the focused-field test turns on "All controls" (a saved switch), so it comes last.
test.describe('keys on links followed in one tab', () => {
  const lab = sharedLabPage();

  test('Space, arrows, R and worker numbers drive the lab', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await page.locator('body').click({ position: { x: 5, y: 700 } });
    await page.keyboard.press('ArrowRight');
    await expect(slider(page)).toHaveValue('1');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(slider(page)).toHaveValue('3');
    await page.keyboard.press('ArrowLeft');
    await expect(slider(page)).toHaveValue('2');
    // 2 steps worker B: at step 2 the trace goes on with A, so this cuts the schedule and replays.
    await page.keyboard.press('2');
    await expect(page).toHaveURL(/schedule=A,B,B&step=3$/);
    await page.keyboard.press('1');
    await expect(page).toHaveURL(/schedule=A,B,B,A&step=4$/);
    await page.keyboard.press('r');
    await expect(slider(page)).toHaveValue('0');
    await expect(page).toHaveURL(/schedule=&step=0$/);
    await page.keyboard.press(' ');
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    // Playing moves on by itself, whenever the machine gets to it (Space pressed again too soon stopped it
    // before its first step on a busy run), and Space stops it.
    await expect.poll(async () => Number(await slider(page).inputValue()), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await page.keyboard.press(' ');
    await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  });

  test('after choosing a strategy, → steps and leaves the choice alone', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B&step=2');
    const strategy = page.getByLabel('Strategy');
    await strategy.focus();
    await strategy.selectOption('cas');
    await expect(page).toHaveURL(/strategy=cas/);
    await expect(strategy).toBeFocused();
    const before = Number(await slider(page).inputValue());
    await page.keyboard.press('ArrowRight');
    await expect(slider(page)).toHaveValue(String(before + 1));
    await expect(strategy).toHaveValue('cas');
    await expect(page).toHaveURL(/strategy=cas/);
    await page.keyboard.press('ArrowLeft');
    await expect(slider(page)).toHaveValue(String(before));
    await expect(strategy).toHaveValue('cas');
  });

  test('keys are left alone while a field has focus', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B&step=2');
    await showAllControls(page);
    // The fencing switch is an input, so R and 1 are its own; as a checkbox it does nothing with them. (A
    // select would not do: both pickers have titles starting with R, "River…", which R chooses there.)
    const fencing = page.getByRole('switch', { name: 'Fencing' });
    await fencing.focus();
    await page.keyboard.press('r');
    await page.keyboard.press('1');
    await expect(fencing).toBeFocused();
    await expect(fencing).not.toBeChecked();
    await expect(slider(page)).toHaveValue('2');
    await expect(page).toHaveURL(/fencing=off&schedule=A,B&step=2$/);
  });
});

test('? opens the keyboard help; Escape closes it', async ({ page }) => {
  await openLab(page);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Play / Pause');
  await expect(help).toContainText('Step worker A, B, C');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('every control is reachable with Tab and shows a focus ring', async ({ page }) => {
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=A&step=1');
  await showAllControls(page);
  // Tabbing starts from the top of a fresh page (All controls is remembered), not from the switch just used.
  await page.reload();
  await waitReady(page);
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const name = el.id || el.getAttribute('aria-label') || el.textContent?.trim().slice(0, 40) || '';
      return { name: `${el.tagName.toLowerCase()}:${name}`, outline: style.outlineStyle, width: style.outlineWidth };
    });
    if (!focused) continue;
    expect(focused.outline, `${focused.name} shows a focus ring`).not.toBe('none');
    seen.add(focused.name);
  }
  const names = [...seen].join('\n');
  for (const control of ['Step worker A', 'Pause worker B', 'Crash worker A', 'Advance clock', 'Reset', 'Back', 'Play']) {
    expect(names).toContain(control);
  }
  expect(names).toContain('select:scenario');
  expect(names).toContain('input:fencing');
});
