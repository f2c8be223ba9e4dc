/**
 * What the page's first load leaves out (the benchmark's "first load": the script files fetched before
 * the lab is ready, bench/browser.bench.ts): the two editors, the embedded view and its dialog, the
 * timeline's exporters and d3-zoom each come in a chunk of their own, fetched when they are wanted.
 * If one of them is imported into the first chunk again, its own chunk is gone and these tests fail:
 * the click that opens it fetches nothing.
 */
import type { Page, Route } from '@playwright/test';
import { expect, openLab, stepTimes, test, timeline, waitReady } from './fixtures';
import { showAllControls } from './disclosure';

const strategyPicker = (page: Page) => page.getByLabel('Strategy', { exact: true });

const LATER_CHUNKS = {
  yourSql: /\/YourSqlPanel-[^/]*\.js$/,
  scenarioEditor: /\/ScenarioEditor-[^/]*\.js$/,
  embedLab: /\/EmbedLab-[^/]*\.js$/,
  embedDialog: /\/EmbedDialog-[^/]*\.js$/,
  exporters: /\/export-[^/]*\.js$/,
  zoom: /\/axis-zoom-[^/]*\.js$/,
};

/** Records, in the page, when it turned ready (as the benchmark reads it: data-lab-ready). */
const READY_AT = `(() => {
  // Before the document has its root element: watch the whole document, as the benchmark does.
  const observer = new MutationObserver(() => {
    if (document.documentElement?.dataset.labReady !== 'true') return;
    window.__readyAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-lab-ready'] });
})();`;

/** The script files the page had started to fetch before it was ready (the resource timing list, as the benchmark reads it). */
async function scriptsBeforeReady(page: Page): Promise<string[]> {
  await page.waitForFunction(() => typeof (window as unknown as { __readyAt?: number }).__readyAt === 'number');
  return page.evaluate(() => {
    const readyAt = (window as unknown as { __readyAt: number }).__readyAt;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < readyAt && /\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => new URL(entry.name).pathname);
  });
}

/** Every script path the page requests from now on. */
function scriptRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js')) paths.push(path);
  });
  return paths;
}

const matching = (paths: readonly string[], chunk: RegExp) => paths.filter((path) => chunk.test(path));

test('the first load has none of the later chunks; the scenario editor shows its loading line, then opens on click', async ({ page }) => {
  await page.addInitScript(READY_AT);
  const requested = scriptRequests(page);
  // The scenario editor's chunk is held back until the test lets it go, so its loading line can be seen.
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(LATER_CHUNKS.scenarioEditor, async (route: Route) => {
    await released;
    await route.continue();
  });
  await page.goto('/');
  await waitReady(page);
  const first = await scriptsBeforeReady(page);
  expect(first.length, 'the first load is seen at all').toBeGreaterThan(3);
  for (const [name, chunk] of Object.entries(LATER_CHUNKS)) expect(matching(first, chunk), `${name} is not part of the first load`).toEqual([]);
  // The page then settles: the zoom comes once the lab has started; neither editor nor the embed comes unasked.
  await expect.poll(() => matching(requested, LATER_CHUNKS.zoom).length, { timeout: 30_000 }).toBe(1);
  await page.waitForLoadState('networkidle');
  for (const chunk of [LATER_CHUNKS.yourSql, LATER_CHUNKS.scenarioEditor, LATER_CHUNKS.embedLab, LATER_CHUNKS.embedDialog, LATER_CHUNKS.exporters])
    expect(matching(requested, chunk)).toEqual([]);

  await showAllControls(page);
  await page.getByRole('button', { name: 'Write a scenario…' }).click();
  await expect(page.getByText('Loading the scenario editor…')).toBeVisible();
  // The loading line can be drawn before the browser has sent the chunk's request: wait for the request.
  await expect.poll(() => matching(requested, LATER_CHUNKS.scenarioEditor).length).toBe(1);
  release();
  const editor = page.getByRole('dialog', { name: 'Your scenario' });
  await expect(editor).toBeVisible();
  await expect(page.getByText('Loading the scenario editor…')).toHaveCount(0);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toBeHidden();
  // Opened again, it comes from the chunk already in: no second fetch.
  await page.getByRole('button', { name: 'Write a scenario…' }).click();
  await expect(editor).toBeVisible();
  expect(matching(requested, LATER_CHUNKS.scenarioEditor)).toHaveLength(1);
  await editor.getByRole('button', { name: 'Cancel' }).click();

  await strategyPicker(page).selectOption('your-sql');
  await expect(page.getByRole('region', { name: 'Your SQL' })).toBeVisible();
  expect(matching(requested, LATER_CHUNKS.yourSql)).toHaveLength(1);

  await page.getByText('Export', { exact: true }).click();
  await page.getByRole('button', { name: 'Embed…' }).click();
  await expect(page.getByRole('dialog', { name: 'Embed this view' })).toBeVisible();
  expect(matching(requested, LATER_CHUNKS.embedDialog)).toHaveLength(1);
  expect(matching(requested, LATER_CHUNKS.embedLab), 'the full page never fetches the embedded view').toEqual([]);
});

test('a zoom asked for before the zoom is in is done once it comes', async ({ page }) => {
  const requested = scriptRequests(page);
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(LATER_CHUNKS.zoom, async (route: Route) => {
    await released;
    await route.continue();
  });
  await page.goto('/#scenario=heartbeat&strategy=cas&fencing=on&schedule=&step=0');
  await waitReady(page);
  // A first step: before it the timeline has nothing to zoom into.
  await stepTimes(page, 1);
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  const reset = page.getByRole('button', { name: 'Reset zoom' });
  await expect(reset).toBeDisabled();
  await zoomIn.click();
  await expect.poll(() => matching(requested, LATER_CHUNKS.zoom).length).toBe(1);
  // Not in yet: the view has not moved.
  await expect(reset).toBeDisabled();
  release();
  await expect(reset).toBeEnabled();
  await expect(timeline(page)).toBeVisible();
});

/** What the page fetches once it has started, in the first pause in the learner's steps (ui/deferred.ts). */
const AFTER_THE_FIRST_PAUSE = /\/(axis-zoom|ConsoleBody|LessonArea|ExplorerPanel|TourPanel|progress-store)-[^/]*\.js$/;

/**
 * At the very moment the page says it is ready, in the same task: what the page shows then, and a Step
 * clicked then (when it was drawn, on the page's clock, to be set against when each later chunk was asked for).
 */
const CLICK_AT_READY = `(() => {
  const later = ${AFTER_THE_FIRST_PAUSE};
  const timelineState = () => {
    const svg = document.querySelector('svg[role="img"][aria-label*="imeline"]');
    return (svg?.querySelectorAll('path.tl-mark').length ?? -1) + '|' + (svg?.getAttribute('aria-label') ?? '');
  };
  let settle;
  window.__atReady = new Promise((resolve) => (settle = resolve));
  const observer = new MutationObserver(() => {
    if (document.documentElement?.dataset.labReady !== 'true') return;
    observer.disconnect();
    const { store, panels } = window.leaseLab;
    const step = [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Next step');
    const seen = {
      stepEnabled: Boolean(step && !step.disabled),
      panelsCaughtUp: panels.getState() === store.getState(),
      address: location.hash,
      readyAt: performance.now(),
    };
    if (!seen.stepEnabled) return settle(seen);
    // The step's answer is held until the page has next been idle (the test's own idle callback, asked
    // for after any the page asked for before ready): what the page does at its first idle moment after
    // ready is then done before this step is drawn, and its chunks would be asked for before it.
    const engine = window.leaseLab.engine;
    const act = engine.act.bind(engine);
    const idle = new Promise((resolve) => requestIdleCallback(() => resolve()));
    engine.act = (action) => act((send) => action(async (request) => {
      const answer = await send(request);
      await idle;
      return answer;
    }));
    const before = timelineState();
    const drawn = new MutationObserver(() => {
      if (timelineState() === before) return;
      drawn.disconnect();
      settle({ ...seen, drawnAt: performance.now() });
    });
    drawn.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    step.click();
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-lab-ready'] });
})();`;

test('ready is said once the lab is drawn: a Step clicked at that very moment runs, and is drawn before any later chunk is asked for', async ({ page }) => {
  await page.addInitScript(CLICK_AT_READY);
  await page.goto('/');
  const seen = await page.evaluate(() => (window as unknown as { __atReady: Promise<Record<string, unknown>> }).__atReady);
  // Said only once React has drawn the lab's first trace, the panels beside it included, and the
  // address written: nothing of the start is left for a click to wait behind.
  expect(seen.stepEnabled, 'Step is enabled in the page when it says it is ready').toBe(true);
  expect(seen.panelsCaughtUp, "the panels' copy has caught up with the store").toBe(true);
  expect(seen.address, 'the address names the view').toMatch(/scenario=/);
  expect(seen.drawnAt, 'the Step clicked at ready was drawn').toEqual(expect.any(Number));
  // The chunks that come after the start wait for a pause in the learner's steps, so the first step
  // clicked at ready does not share the main thread with their evaluation: they come (once the learner
  // pauses), each asked for after that step was drawn (resource timing's startTime: when it was asked for).
  const requested = () =>
    page.evaluate(
      (later) =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => new RegExp(later).test(new URL(entry.name).pathname))
          .map((entry) => ({ chunk: new URL(entry.name).pathname.split('/').pop(), askedAt: entry.startTime })),
      AFTER_THE_FIRST_PAUSE.source,
    );
  await expect.poll(async () => (await requested()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  const drawnAt = seen.drawnAt as number;
  // A start slower than the deferral's limit (src/ui/deferred.ts, SLOW_START_MS: a busy machine) shows the
  // panels before ready, on purpose; what this checks is the window between ready and the step drawn.
  const readyAt = seen.readyAt as number;
  expect((await requested()).filter((entry) => entry.askedAt >= readyAt && entry.askedAt < drawnAt)).toEqual([]);
});

test("a network that hangs on the start's live-bridge question does not hold the start", async ({ page }) => {
  // The engine's Web Worker asks (HEAD, its own script) whether the live bridge served the page; here that
  // request is taken and never answered, as a captive portal or a dead Wi-Fi does.
  let held = 0;
  await page.route(/\/assets\/[^/]*engine[^/]*\.js$/, async (route) => {
    if (route.request().method() !== 'HEAD') return route.continue();
    held++;
    await new Promise(() => undefined);
  });
  await openLab(page);
  await expect(page.getByRole('button', { name: 'Next step', exact: true })).toBeEnabled();
  expect(held).toBe(1);
});
