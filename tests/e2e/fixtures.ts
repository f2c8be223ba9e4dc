/**
 * The page fixture every spec uses: it fails the test on any console error or uncaught page error, and
 * offers the few helpers a learner's walk needs (wait for Postgres, read the outcome, step, count marks).
 */
import { test as base, type BrowserContext, expect, type Locator, type Page } from '@playwright/test';

export const test = base.extend<{ problems: string[]; allowedProblems: RegExp[] }>({
  /** Console lines a test expects from here on (a server it stopped on purpose): checked when the test ends. */
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
  allowedProblems: async ({}, use) => {
    await use([]);
  },
  problems: [
    async ({ context, allowedProblems }, use) => {
      const problems: string[] = [];
      // The test's page: the first one opened in its context (Playwright's page fixture opens it when a
      // test asks for it). Tests on a sharedLabPage ask for none, and a page opened for nothing costs a
      // browser window's start (~0.4 s of CPU each, measured with 20 blank tests).
      context.once('page', (page) => watchProblems(page, problems));
      await use(problems);
      const unexpected = problems.filter((line) => !allowedProblems.some((pattern) => pattern.test(line)));
      expect(unexpected, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

/** Collects a page's console errors, uncaught errors and dialogs (dismissed) as lines in `problems`. */
function watchProblems(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`unexpected dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
}

/**
 * One page for the tests of a describe block, each of which opens its own link in it (openLinkInPlace;
 * the first link starts the lab): Postgres starts once for the block instead of once per test, ~2.5 s of
 * CPU each. Call it inside the describe; it runs the block's tests in order in one worker (serial mode:
 * after a failure the rest are skipped). Only for tests whose link names everything they read and that
 * leave nothing behind a later test reads (no saved switches, no time scale, no zoom): an in-place link
 * keeps the page's own settings, as it does for a learner. Console errors, page errors and dialogs fail
 * the test in which they came, as the page fixture's do.
 */
export function sharedLabPage(viewport?: { width: number; height: number }): () => Page {
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const problems: string[] = [];
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext(viewport ? { viewport } : {});
    page = await context.newPage();
    watchProblems(page, problems);
  });
  test.afterEach(() => {
    expect(problems.splice(0), 'the page logged errors').toEqual([]);
  });
  test.afterAll(async () => {
    await context?.close();
  });
  return () => {
    if (!page) throw new Error('sharedLabPage: the page is opened in beforeAll; read it inside a test');
    return page;
  };
}

export { expect };

/** Opens the lab (optionally at a link) and waits until Postgres has answered the first load. */
export async function openLab(page: Page, fragment = ''): Promise<void> {
  await page.goto(fragment ? `/#${fragment}` : '/');
  await waitReady(page);
}

/**
 * Opens another link in a page whose lab is running, as a link followed inside the tab does: the
 * address's fragment changes and the lab reopens there, on the Postgres it has (no second start, which
 * costs several seconds of CPU). The fragment must name its scenario and strategy: the pickers showing
 * them say the new view has begun loading, so waitReady then waits for its trace and not the last one's.
 * A link may name only its scenario (it opens with the scenario's own claim and fencing, as from outside)
 * when that is not the scenario shown: the scenario picker's change alone then says so.
 */
export async function openLinkInPlace(page: Page, fragment: string): Promise<void> {
  const link = new URLSearchParams(fragment);
  const scenario = link.get('scenario');
  const strategy = link.get('strategy');
  if (!scenario) throw new Error(`openLinkInPlace needs a link naming its scenario: ${fragment}`);
  // The pickers say the new view has begun loading only when one of them changes: with both as they
  // are, the lab's last view, still ready, would pass for the link's, so then the wait is for the link's
  // own schedule and step in the store.
  const showing: StoreQuery = { kind: 'showing', scenario, strategy };
  const sameView = await page.evaluate(storeSays, showing);
  if (sameView && strategy === null) {
    throw new Error(`openLinkInPlace: the link names only its scenario, which is the one shown; name its strategy too: ${fragment}`);
  }
  await page.goto(`/#${fragment}`);
  await expect(page.getByLabel('Scenario')).toHaveValue(scenario);
  if (strategy !== null) await expect(page.getByLabel('Strategy', { exact: true })).toHaveValue(strategy);
  if (sameView) {
    // Read as the lab reads a link: "+31" is a clock move (URLSearchParams would make its "+" a space).
    const schedule = decodeURIComponent(/(?:^|&)schedule=([^&]*)/.exec(fragment)?.[1] ?? '');
    const step = link.get('step');
    await untilStore(page, { kind: 'link', schedule, position: step === null ? null : Number(step) }, 90_000);
  }
  await waitReady(page);
}

/**
 * Waits until the lab's store (window.leaseLab, the page's hook for tests) satisfies `condition`, checked in
 * the page every few milliseconds: an accelerator, not an assertion, for the locator assertion that
 * follows it. Playwright re-checks a locator assertion after 20, 50, 100, 100 ms and then every 500 ms, so
 * a condition that took 300 ms (a step on a busy machine) was seen 500 ms later, and a start that took
 * 8 s up to half a second later; each test paid that several times. The assertion after it still decides,
 * with its own retries, so a condition read a little differently here can cost time, never a check.
 */
async function untilStore(page: Page, until: StoreCondition, timeout: number): Promise<void> {
  await page.waitForFunction(storeSays, until, { polling: 25, timeout });
}

/** What untilStore waits for: the controls usable, the lab at a step, or a link's own schedule and step loaded. */
type StoreCondition = { kind: 'ready' } | { kind: 'position'; position: number } | { kind: 'link'; schedule: string; position: number | null };

/** What storeSays answers: a condition to wait for, or whether the lab shows this scenario (and strategy). */
type StoreQuery = StoreCondition | { kind: 'showing'; scenario: string; strategy: string | null };

/** The store fields these helpers read, from the page's hook for tests (window.leaseLab, src/app/page.tsx). */
interface HookedState {
  loaded: boolean;
  enginePhase: string;
  scenarioId: string;
  settings: { strategy: string };
  schedule: string[];
  position: number;
}

/**
 * The one reader of the lab's store: runs in the page (page.evaluate and waitForFunction send its text
 * there, so it names nothing outside itself) and answers `query` from the store's state.
 */
function storeSays(query: StoreQuery): boolean {
  const hook = (window as unknown as { leaseLab?: { store: { getState(): HookedState } } }).leaseLab;
  // The page sets its hook as it starts; a page whose scripts could not load says so here instead.
  if (!hook) return query.kind !== 'showing' && document.documentElement.dataset.labReady === 'failed';
  const state = hook.store.getState();
  switch (query.kind) {
    case 'showing':
      // Without a strategy: whether this scenario is shown, whatever its claim.
      return state.scenarioId === query.scenario && (query.strategy === null || state.settings.strategy === query.strategy);
    case 'ready':
      // As the controls read it (ui/hooks.ts useReady): a trace has loaded and the engine has not failed.
      return state.loaded && state.enginePhase !== 'failed';
    case 'position':
      return state.position === query.position;
    case 'link':
      return state.loaded && state.schedule.join(',') === query.schedule && (query.position === null || state.position === query.position);
  }
}

/** Opens a chapter from the lesson's chapter list, as a learner does; returns the lesson region. */
export async function openChapter(page: Page, title: string): Promise<Locator> {
  const lesson = page.getByRole('region', { name: 'Lesson', exact: true });
  await lesson
    .getByRole('navigation', { name: 'Lesson chapters' })
    .getByRole('link', { name: new RegExp(`^${title}`) })
    .click();
  return lesson;
}

/**
 * Answers a chapter's prediction that a recording judges (its first choice), shows the recorded answer, and
 * checks that the verdict reads as given and says the answer was recorded on a server, not run here.
 */
export async function answerRecordedPrediction(lesson: Locator, name: string, verdict: string): Promise<Locator> {
  const predict = lesson.getByRole('region', { name });
  await predict.getByRole('radio').first().check();
  await predict.getByRole('button', { name: 'Show the recorded answer' }).click();
  await expect(predict.locator('.ll-verdict')).toContainText(verdict);
  await expect(predict).toContainText("Recorded on a real PostgreSQL server: PGlite is one session and cannot hold two transactions' snapshots at once");
  return predict;
}

export async function waitReady(page: Page): Promise<void> {
  // Reset works as soon as a trace has loaded (Step may be off: a link can open a finished run).
  await untilStore(page, { kind: 'ready' }, 90_000);
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
  await expect(outcome(page)).not.toContainText(/Starting Postgres|Loading the scenario/);
}

/**
 * Waits until the page's offline copy is saved: its service worker is active (navigator.serviceWorker.ready,
 * a promise, so a worker that got there before the test looked is not missed), then the header says so.
 * The copy is a second download of the whole app, begun in the first pause after the lab is ready: on a busy
 * machine that takes long, so the wait is for that state (bounded by the test's own timeout), not for a time.
 */
export async function offlineCopySaved(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect(page.locator('.offline-indicator')).toHaveText(/Works offline/);
}

export const stepButton = (page: Page) => page.getByRole('button', { name: 'Next step', exact: true });
export const slider = (page: Page) => page.getByRole('slider', { name: 'Step position' });
/** The lab's outcome region (the lesson below has status regions of its own). */
export const outcome = (page: Page) => page.locator('#lab-top').getByRole('status');
export const timeline = (page: Page) => page.getByRole('img', { name: /Timeline/ });
export const runsTable = (page: Page): Locator => page.getByRole('region', { name: 'runs table', exact: true }).getByRole('table');
export const notices = (page: Page) => page.locator('.notices');

/**
 * The runs table's text once it shows the state after step `n` (0: as seeded). The panels draw one
 * task behind the store, so right after the slider moves the table can still show the step before.
 */
export async function runsTableAfter(page: Page, n: number): Promise<string> {
  const region = page.getByRole('region', { name: 'runs table', exact: true });
  await expect(region.getByRole('heading')).toHaveText(n === 0 ? /as seeded/ : new RegExp(`after step ${n}(?!\\d)`));
  return region.getByRole('table').innerText();
}

export async function position(page: Page): Promise<number> {
  return Number(await slider(page).inputValue());
}

/** Presses Step n times, waiting for each step to land. */
export async function stepTimes(page: Page, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const before = await position(page);
    await stepButton(page).click();
    await untilStore(page, { kind: 'position', position: before + 1 }, 20_000);
    await expect(slider(page)).toHaveValue(String(before + 1));
  }
}

/**
 * Retry intervals for a condition that several calls read (toPass's own start at 100 ms and double): a
 * step lands in 60–180 ms, so the default made each one wait about 350 ms.
 */
const STEP_POLL = { intervals: [20, 50, 100, 100, 250] };

/** Presses Step until nothing more can happen (the button turns off). */
export async function stepToEnd(page: Page, limit = 60): Promise<void> {
  // A scenario, strategy or fencing just chosen is still loading, and Step is off then too: wait for the
  // trace, or a lab still loading passes for a run that is over (on a busy machine the load takes seconds).
  await waitReady(page);
  for (let i = 0; i < limit; i++) {
    if (!(await stepButton(page).isEnabled())) return;
    const before = await position(page);
    await stepButton(page).click();
    await expect(async () => {
      const moved = (await position(page)) !== before;
      const over = !(await stepButton(page).isEnabled());
      expect(moved || over).toBe(true);
    }).toPass(STEP_POLL);
  }
  throw new Error(`still not over after ${limit} steps`);
}

/**
 * How long the backpressure simulation may go without showing any progress before a test calls it stuck.
 * Its progress moves every few hundred milliseconds of CPU time, so this is generous even for a worker
 * that gets a small share of a starved machine.
 */
const SIMULATION_STALL_MS = 90_000;

/**
 * Waits until the backpressure view has simulated both claims to their end (its clock no longer ends in
 * "…"), for as long as the simulation moves on: on a quiet machine it takes seconds, on one with a load
 * average of 30 minutes, so a fixed deadline failed tests whose simulation was running fine. It fails at
 * once when the view says the simulation failed, and when its progress (the simulated share and the
 * seconds computed) has not moved for SIMULATION_STALL_MS. A test that waits here gives itself a test
 * timeout to match (see SIMULATING_TEST_MS).
 */
export async function backpressureSimulated(page: Page): Promise<void> {
  const read = () =>
    page.evaluate(() => ({
      clock: document.querySelector('output.bp-clock')?.textContent ?? '',
      status: document.querySelector('output.bp-status')?.textContent ?? '',
    }));
  let last = '';
  let movedAt = Date.now();
  for (;;) {
    const { clock, status } = await read();
    if (status.startsWith('Failed')) throw new Error(`the backpressure simulation failed: ${status}`);
    if (clock !== '' && !clock.includes('…')) return;
    const progress = `${clock} | ${status}`;
    if (progress !== last) {
      last = progress;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > SIMULATION_STALL_MS) {
      throw new Error(`the backpressure simulation showed no progress for ${SIMULATION_STALL_MS / 1000} s: ${progress}`);
    }
    await page.waitForTimeout(200);
  }
}

/**
 * The test timeout of a test that waits for backpressure simulations: only a backstop, as
 * backpressureSimulated fails on a stalled or failed simulation. A starved machine (load average 15–35
 * on 2 cores) took more than the suite's 3 minutes for one.
 */
export const SIMULATING_TEST_MS = 15 * 60_000;

/**
 * A screenshot for a person to look at (E2E_SHOTS=1), not for an assertion: a run that nobody looks at,
 * as in CI, skips the encoding.
 */
export async function shot(target: Page | Locator, path: string): Promise<void> {
  if (process.env.E2E_SHOTS) await target.screenshot({ path });
}

/** Marks drawn on the timeline, and what its label says is shown. */
export async function timelineView(page: Page): Promise<{ label: string; marks: number }> {
  const svg = timeline(page);
  const label = (await svg.getAttribute('aria-label')) ?? '';
  const marks = await svg.locator('path.tl-mark').count();
  return { label, marks };
}
