/**
 * Issue 31 as a first-time learner meets it, at 1440×900 and on a 390×844 phone: the words and marks of
 * item 7 (clock moves, a rolled-back claim, a challenge's verdict, the backpressure charts, the step count,
 * the race's title, a queue without a heartbeat, the naive race's end), the phone's first screen and tour
 * sheet (item 5), and a page that shows it is busy and does not move when a note appears (item 6).
 */
import type { Page } from '@playwright/test';
import { CHAPTERS } from '../../src/lessons/chapters';
import { expect, offlineCopySaved, openLab, openLinkInPlace, sharedLabPage, slider, stepButton, stepTimes, stepToEnd, test, timeline } from './fixtures';
import { showAllControls, workerStep } from './disclosure';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The words under the timeline's marks (and, with `sublabels`, their second lines). */
async function markWords(page: Page, which: 'tl-label' | 'tl-sublabel' = 'tl-label'): Promise<string[]> {
  return timeline(page).locator(`text.${which}`).allTextContents();
}

/** The words drawn on the timeline's lease bars. */
async function barWords(page: Page): Promise<string[]> {
  return timeline(page).locator('text.tl-bar-text').allTextContents();
}

async function shownSteps(page: Page, n: number): Promise<void> {
  await expect(timeline(page)).toHaveAttribute('aria-label', new RegExp(`: ${n} of \\d+ steps shown`));
}

const card = (page: Page, worker: string) => page.getByRole('article', { name: `Worker ${worker}`, exact: true });
const cardValue = (page: Page, worker: string, term: string) => card(page, worker).locator('dt', { hasText: term }).locator('+ dd');

for (const size of SIZES) {
  const at = `${size.width}×${size.height}`;

  test(`${at} 4: backpressure's waiting-time words stay inside their chart, and the simulation shows its progress`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    await page.goto('/#backpressure');
    await expect(page.getByRole('heading', { name: /Backpressure/ })).toBeVisible();
    // While it simulates, how far it has got.
    await expect(page.getByRole('progressbar', { name: 'Simulation progress' })).toBeVisible({ timeout: 60_000 });
    // …and it moves on before the end.
    await expect(page.locator('output.bp-status')).toHaveText(/Simulating on Postgres… [1-9]\d?%/, { timeout: 120_000 });
    await expect(page.locator('output.bp-clock')).not.toContainText('…', { timeout: 200_000 });
    await expect(page.getByRole('progressbar', { name: 'Simulation progress' })).toHaveCount(0);
    const words = page.locator('svg.bp-waits text.bp-wait-text');
    expect(await words.count()).toBeGreaterThan(0);
    for (const text of await words.all()) {
      const inside = await text.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const svg = el.closest('svg')!.getBoundingClientRect();
        return box.left >= svg.left - 0.5 && box.right <= svg.right + 0.5;
      });
      expect(inside, `"${await text.textContent()}" is cut at the chart's edge`).toBe(true);
    }
  });

  // Each of these opens its own link and reads or steps the view it opens: one page (one Postgres start)
  // per window size opens them in turn, as links followed in the tab.
  test.describe(`${at}: links opened in one page`, () => {
    const lab = sharedLabPage(size);

    test(`${at} 7.1: a "+40" the clock took in two moves reads +39 s, then +1 s, under its marks`, async () => {
      const page = lab();
      await openLinkInPlace(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A,A,+10,+51,B,B,B,+40,A,B&step=14');
      await shownSteps(page, 14);
      const words = await markWords(page);
      expect(words).not.toContain('+40 s');
      if (size.width > 800) expect(words).toEqual(expect.arrayContaining(['+10 s', '+51 s', '+39 s', '+1 s']));
      // The step the words talk about says the same.
      await slider(page).fill('10');
      await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('The clock moved 39 s');
    });

    test(`${at} 7.2: a claim the crash rolled back reads as never held, on A's card and its bar`, async () => {
      const page = lab();
      await openLinkInPlace(page, 'scenario=race&strategy=skip-locked&fencing=on&schedule=A,crash:A,B,B,B&step=2');
      await shownSteps(page, 2);
      await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('Its open transaction rolled back');
      await expect(cardValue(page, 'A', 'Run')).toHaveText('—');
      await expect(cardValue(page, 'A', 'Lease')).toHaveText('—');
      await expect(timeline(page).locator('rect.tl-lease-rolled-back')).toHaveCount(1);
      await slider(page).fill('5');
      await shownSteps(page, 5);
      // B's claim has generation 18 too: only one bar reads as holding it.
      const held = (await barWords(page)).filter((text) => /gen 18/.test(text) && !/rolled back/.test(text));
      expect(held.length).toBeLessThanOrEqual(1);
      if (size.width > 800) expect((await barWords(page)).join(' ')).toContain('rolled back');
    });

    test(`${at} 7.5, 7.6: the step count says what is still to come, and the race is titled by its two pending runs`, async () => {
      const page = lab();
      await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off');
      await expect(page.getByRole('combobox', { name: 'Scenario', exact: true }).locator('option:checked')).toHaveText('Two workers, two pending runs');
      await stepTimes(page, 1);
      const heading = page.getByRole('complementary', { name: 'Selected step' }).getByRole('heading', { level: 2 });
      await expect(heading).toContainText('Step 1 of 1 so far; the script has 9 more moves');
      await stepToEnd(page);
      // Over: the count is the whole run's (the clock follows it in the heading).
      await expect(heading).toHaveText(/^Step (\d+) of \1\d\d:\d\d/);
      await expect(heading).not.toContainText('so far');
    });

    test(`${at} 7.7: graphile-worker #169 marks A's plain read "read" and says its clock moves in hours`, async () => {
      const page = lab();
      await openLinkInPlace(
        page,
        'scenario=incident-graphile-169&strategy=graphile-worker&fencing=off&schedule=A,A,A,+10800,A,+3601,rescue,B,B,B,A,A,B,B&step=14',
      );
      await shownSteps(page, 14);
      const words = await markWords(page);
      expect(words).not.toContain('hb');
      expect(words.join(' ')).not.toMatch(/\d{4,} s/);
      if (size.width > 800) expect(words).toEqual(expect.arrayContaining(['read', '+3 h']));
      await slider(page).fill('4');
      await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('The clock moved 3 h, from 15:00:00 to 18:00:00.');
    });

    if (size.width > 800) {
      test('7.8: the end of the naive race names the status check under the rejected mark', async () => {
        const page = lab();
        await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off');
        await stepToEnd(page);
        await expect(page.locator('#lab-top').getByRole('status')).toContainText('Fencing is off');
        expect(await markWords(page, 'tl-sublabel')).toContain('status check');
        expect((await timeline(page).locator('text.tl-legend-text').allTextContents()).join(' ')).not.toContain('fencing / 0 rows');
      });

      test('1440×900: the desktop timeline keeps its wheel hint', async () => {
        const page = lab();
        // The hint depends on the pointer, not on the scenario: any view's timeline shows it.
        await openLinkInPlace(page, 'scenario=race&strategy=skip-locked&fencing=on');
        await expect(page.getByText('Ctrl + wheel to zoom')).toBeVisible();
      });
    }
  });
}

test('7.3: "Make NOWAIT give up while a run is free", won with A,B,B,B, names the free run and each step once', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#lesson/challenge/nowait-gives-up');
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
  const lesson = page.getByRole('region', { name: 'Lesson', exact: true });
  const level = lesson.getByRole('tabpanel').getByRole('article', { name: /Make NOWAIT give up while a run is free/ });
  await level.getByRole('button', { name: 'Play this level', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Strategy', exact: true })).toHaveValue('nowait');
  for (const [n, worker] of ['A', 'B', 'B', 'B'].entries()) {
    await workerStep(page, worker).click();
    await expect(slider(page)).toHaveValue(String(n + 1));
  }
  const banner = page.locator('#lab-top').getByRole('region', { name: 'Make NOWAIT give up while a run is free', exact: true });
  await expect(banner).toContainText('Level solved ✓');
  await expect(banner).toContainText('while run 124 was free all along');
  await expect(banner).toContainText('See steps 2, 3 and 4 on the timeline.');
});

test.describe('5: on a phone (390×844, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the timeline is on the first screen with Step, above the other controls, and no hint asks for a wheel', async ({ page }) => {
    await openLab(page);
    const first = (await timeline(page).boundingBox())!;
    const step = (await stepButton(page).boundingBox())!;
    expect(first.y, 'the timeline starts on the first screen').toBeLessThan(844 - 200);
    // Every control shown: the clock's and the workers' come under the timeline.
    await showAllControls(page);
    const line = (await timeline(page).boundingBox())!;
    const clock = (await page.getByRole('button', { name: 'Advance clock', exact: true }).boundingBox())!;
    // The toolbar's Step worker A, in worker A's group.
    const worker = (await page.getByRole('group', { name: 'Worker A' }).getByRole('button', { name: 'Step worker A', exact: true }).boundingBox())!;
    expect(step.y + step.height, 'Step is on the first screen').toBeLessThan(844);
    expect(line.y).toBeLessThan(clock.y);
    expect(line.y).toBeLessThan(worker.y);
    await expect(page.getByText('Ctrl + wheel to zoom')).toBeHidden();
    await expect(page.getByText('− and + to zoom')).toBeVisible();
  });

  test("the tour sheet's Continue is on screen without scrolling, at every step of the first chapter", async ({ page }) => {
    await openLab(page);
    await page.getByRole('button', { name: 'Tour', exact: true }).click();
    const tour = page.getByRole('complementary', { name: 'Tour', exact: true });
    const chapter = CHAPTERS[0]!;
    for (let index = 0; index < chapter.steps.length - 1; index++) {
      await expect(tour.getByRole('heading', { level: 3 })).toHaveText(chapter.steps[index]!.heading);
      const next = tour.getByRole('button', { name: 'Continue →' });
      const [sheet, button] = [(await tour.boundingBox())!, (await next.boundingBox())!];
      expect(button.y, `step ${index + 1}: Continue below the sheet's top`).toBeGreaterThanOrEqual(sheet.y);
      expect(button.y + button.height, `step ${index + 1}: Continue above the sheet's bottom`).toBeLessThanOrEqual(Math.min(sheet.y + sheet.height, 844) + 0.5);
      // Nothing covers it: a tap at its centre reaches it.
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, {
        x: button.x + button.width / 2,
        y: button.y + button.height / 2,
      });
      expect(hit).toBe('Continue →');
      await next.click();
    }
  });
});

test('6: from the first click on Step until its step is drawn, the page shows it is busy', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, 'scenario=race&strategy=naive&fencing=off');
  await expect(stepButton(page)).toHaveAttribute('aria-busy', 'false');
  // Everything the page shows, in order, from the click on: Step busy, the first mark drawn, Step not busy.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Next step')!;
    let clicked = false;
    const look = () => {
      if (!clicked) return;
      const busy = button.getAttribute('aria-busy') === 'true' ? 'busy' : 'idle';
      const drawn = document.querySelector('path.tl-mark[data-step="0"]') ? 'drawn' : 'empty';
      const now = `${busy} ${drawn}`;
      if (seen.at(-1) !== now) seen.push(now);
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
    // From the click on (what the page showed before it does not count).
    button.addEventListener('click', () => {
      clicked = true;
    });
  });
  await stepButton(page).click();
  await shownSteps(page, 1);
  await expect(stepButton(page)).toHaveAttribute('aria-busy', 'false');
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  // Busy at once (before anything is drawn), still busy when the mark appears or after, idle only once drawn.
  expect(seen[0]).toBe('busy empty');
  expect(seen).not.toContain('idle empty');
  expect(seen.at(-1)).toBe('idle drawn');

  // A slow step (the engine's answer held back by the page's hook for tests): Step and the timeline say
  // they are busy for as long as it takes, and nothing new is drawn meanwhile; the answer ends it.
  await page.evaluate(() => {
    const hooks = window as unknown as {
      leaseLab: { engine: { act: (action: (send: unknown) => Promise<unknown>) => Promise<unknown> } };
      releaseStep: () => void;
    };
    const engine = hooks.leaseLab.engine;
    const act = engine.act.bind(engine);
    const held = new Promise<void>((release) => {
      hooks.releaseStep = release;
    });
    engine.act = (action) =>
      act((send) =>
        action(async (request: unknown) => {
          const answer = await (send as (request: unknown) => Promise<unknown>)(request);
          await held;
          return answer;
        }),
      );
  });
  await stepButton(page).click();
  await expect(stepButton(page)).toHaveAttribute('aria-busy', 'true');
  await expect(stepButton(page)).toHaveClass(/is-busy/);
  await expect(page.getByRole('region', { name: 'Timeline', exact: true })).toHaveAttribute('aria-busy', 'true');
  await shownSteps(page, 1);
  await page.evaluate(() => (window as unknown as { releaseStep: () => void }).releaseStep());
  await shownSteps(page, 2);
  await expect(stepButton(page)).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('region', { name: 'Timeline', exact: true })).toHaveAttribute('aria-busy', 'false');
});

test.describe('6: the "Works offline" note', () => {
  // The note comes once the service worker has saved the lab, seconds after it is ready.
  test.use({ serviceWorkers: 'allow' });

  for (const size of SIZES) {
    test(`${size.width}×${size.height}: takes room the header already had: nothing moves when it appears`, async ({ page }) => {
      await page.setViewportSize(size);
      await openLab(page);
      // From here on, every frame: the note's words and where Step and the timeline are.
      await page.evaluate(() => {
        const samples: { note: string; step: number; timeline: number }[] = [];
        (window as unknown as { samples: typeof samples }).samples = samples;
        const look = () => {
          const step = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Next step')!.getBoundingClientRect().top + window.scrollY;
          const line = document.querySelector('svg.tl-svg')!.getBoundingClientRect().top + window.scrollY;
          samples.push({ note: document.querySelector('.offline-indicator')?.textContent ?? '', step, timeline: line });
          if (samples.length < 100_000) requestAnimationFrame(look);
        };
        look();
      });
      await offlineCopySaved(page);
      const samples = await page.evaluate(() => (window as unknown as { samples: { note: string; step: number; timeline: number }[] }).samples);
      expect(samples[0]!.note, 'the note was not there yet when the lab was ready').toBe('');
      expect(samples.at(-1)!.note).toContain('Works offline');
      expect(new Set(samples.map((s) => s.step)).size, 'Step moved').toBe(1);
      expect(new Set(samples.map((s) => s.timeline)).size, 'the timeline moved').toBe(1);
    });
  }
});
