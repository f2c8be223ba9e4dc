/**
 * Postgres lives in a Web Worker: the page paints before it is ready, stays responsive while a
 * statement runs away, and the watchdog restarts it and replays the learner's steps.
 */
import { expect, notices, openLab, outcome, slider, stepButton, stepTimes, test, timelineView } from './fixtures';
import { showAllControls } from './disclosure';

test('the page paints at once and says Postgres is starting', async ({ page, context }) => {
  // Hold back PGlite's WebAssembly so the start stays visible.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route(/\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Lease Lab' })).toBeVisible();
  await expect(outcome(page)).toContainText('Starting Postgres');
  // index.html has React DOM and the page's modules fetched while it is parsed (vite.config.ts), and
  // they are the ones the page runs.
  const html = await (await page.request.get('/')).text();
  const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\.\/assets\/([^"]+)"/g)].map((match) => match[1]!);
  expect(
    preloaded.filter((name) => /^(client|page)-[\w-]+\.js$/.test(name)),
    preloaded.join(', '),
  ).toHaveLength(2);
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()));
  for (const name of preloaded) expect(fetched).toContain(name);
  await expect(stepButton(page)).toBeDisabled();
  // The page answers while Postgres is not there yet.
  await showAllControls(page);
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toBeVisible();
  await page.keyboard.press('Escape');
  release();
  await expect(stepButton(page)).toBeEnabled({ timeout: 90_000 });
  // The engine worker asked for PGlite's script (its own chunk, from @electric-sql/pglite/dist), its wasm
  // and the data directory before its own modules were evaluated (src/webworker/engine-early.ts), not once
  // they were: a returning learner's start waited for that evaluation before these requests went out.
  const engine = page.workers().find((worker) => worker.url().includes('engine.worker'));
  const askedFirst = await engine!.evaluate(() => {
    const engineCode = performance.getEntriesByName('lease-lab:engine-script')[0]!.startTime;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < engineCode)
      .map((entry) => new URL(entry.name).pathname.split('/').pop());
  });
  for (const file of [/^dist-[\w-]+\.js$/, /^pglite-[\w-]+\.wasm$/, /^lab-datadir\.tar-[\w-]+\.gz$/])
    expect(
      askedFirst.filter((name) => file.test(name ?? '')),
      `${file} asked for before the engine's code ran (${askedFirst.join(', ')})`,
    ).toHaveLength(1);
});

test('a runaway statement: the watchdog restarts Postgres and replays the schedule', async ({ page }) => {
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
  await showAllControls(page);
  await stepTimes(page, 5);
  const before = await timelineView(page);
  // A statement that waits for a row lock forever, as PGlite does; only the developer console can send it.
  void page.evaluate(() =>
    (window as unknown as { leaseLab: { store: { getState(): { simulateRunaway(): Promise<void> } } } }).leaseLab.store.getState().simulateRunaway(),
  );
  // The page stays responsive while the worker spins.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toBeVisible();
  await page.keyboard.press('Escape');
  // The watchdog fires after 1.5 s and a spare Postgres, booted when the statement was sent, takes over
  // (while it finishes booting the page says "Restarting Postgres…"; a quiet machine may have it ready).
  await expect(notices(page)).toContainText('Postgres stopped answering while running a statement that never returns, so the lab restarted it.', {
    timeout: 90_000,
  });
  await expect(notices(page)).toContainText('replayed your 5 steps');
  await expect(stepButton(page)).toBeEnabled({ timeout: 90_000 });
  await expect(slider(page)).toHaveValue('5');
  expect(await timelineView(page)).toEqual(before);
  await stepTimes(page, 1);
  await expect(outcome(page)).toContainText('executed by both A and B');
});
