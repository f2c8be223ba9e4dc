/**
 * Time you can see (issue 18, 3.4), as drawn: a lease bar reaches the row's lease_expires_at and moves on
 * at each heartbeat, the "time to scale" axis draws a clock move by its seconds, a stuck worker's hung
 * model call is a span, and no label touches another or an expiry marker on either axis.
 */
import type { Page } from '@playwright/test';
import { expect, openLab, openLinkInPlace, sharedLabPage, slider, stepToEnd, test, timeline } from './fixtures';
import { crowdedLabels } from './label-boxes';

const scaleBox = (page: Page) => page.getByRole('checkbox', { name: 'time to scale' });

/** Shows the first n steps and waits until the timeline has drawn them. */
async function showSteps(page: Page, n: number): Promise<void> {
  await slider(page).fill(String(n));
  await expect(page.locator('text.tl-step-tick-selected')).toHaveText(String(n));
}

/** The right end of worker A's lease bar (its outline), in px, and how many renewals it shows. */
async function leaseOfA(page: Page): Promise<{ end: number; renewals: number }> {
  return timeline(page).evaluate((svg) => {
    const lane = [...svg.querySelectorAll('text')].find((t) => t.textContent === 'A')!.getBoundingClientRect();
    const inLane = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.top >= lane.top - 60 && box.bottom <= lane.bottom + 60;
    };
    const edges = [...svg.querySelectorAll('path.tl-lease-edge')].filter(inLane);
    const end = Math.max(
      ...edges.map((e) => e.getBoundingClientRect().right),
      ...[...svg.querySelectorAll('rect.tl-lease-ahead')].filter(inLane).map((e) => e.getBoundingClientRect().right),
    );
    return { end, renewals: [...svg.querySelectorAll('g.tl-renewal')].filter(inLane).length };
  });
}

/** The centre of each step's mark, in step order. */
async function markXs(page: Page): Promise<number[]> {
  return timeline(page).evaluate((svg) =>
    [...svg.querySelectorAll('path.tl-mark[data-step]')]
      .sort((a, b) => Number(a.getAttribute('data-step')) - Number(b.getAttribute('data-step')))
      .map((m) => {
        const box = m.getBoundingClientRect();
        return box.left + box.width / 2;
      }),
  );
}

// Links followed in one tab at 1440×900: the heartbeat and the clock-move test leave "time to scale" off
// as they found it, and the stuck heartbeat, which turns it on, comes last.
test.describe('links followed in one tab at 1440×900', () => {
  const lab = sharedLabPage({ width: 1440, height: 900 });

  test('heartbeat: the lease bar reaches lease_expires_at and moves on at each heartbeat, on both axes', async () => {
    test.setTimeout(240_000);
    const page = lab();
    // A claims, works, heartbeats after +30 s, works, heartbeats after +30 s… (the scenario's script).
    await openLinkInPlace(page, 'scenario=heartbeat&strategy=skip-locked&fencing=on');
    await stepToEnd(page);
    const heartbeats = await page.evaluate(() => {
      const state = (
        window as unknown as { leaseLab: { store: { getState(): { steps: { actor: string; action: string; verdict: string }[] } } } }
      ).leaseLab.store.getState();
      return state.steps.flatMap((s, i) => (s.actor === 'A' && s.action === 'heartbeat' && s.verdict === 'ok' ? [i] : []));
    });
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    for (const scaled of [false, true]) {
      if (scaled) await scaleBox(page).check();
      await expect(timeline(page)).toHaveAttribute('aria-label', scaled ? /time to scale/ : /^(?!.*time to scale)/);
      for (const [k, index] of heartbeats.entries()) {
        await showSteps(page, index);
        const before = await leaseOfA(page);
        await showSteps(page, index + 1);
        const after = await leaseOfA(page);
        expect(after.renewals, `renewals after step ${index + 1}`).toBe(k + 1);
        expect(after.end, `the bar's end moved on at step ${index + 1}`).toBeGreaterThan(before.end + 4);
        expect(await crowdedLabels(page), `step ${index + 1}`).toEqual([]);
      }
    }
    // Left off as it was found, for the next link in this page.
    await scaleBox(page).uncheck();
  });

  test('time to scale: a 30 s clock move is drawn long and an instant short; off, the step axis is as before', async () => {
    const page = lab();
    // Steps 1–3 are instants (15:00:00), then the clock moves 30 s before step 4.
    await openLinkInPlace(page, 'scenario=heartbeat&strategy=skip-locked&fencing=on&schedule=A,A,A,%2B30,A&step=5');
    await expect(timeline(page)).toHaveAttribute('aria-label', /: 5 of 5 steps shown/);
    const ratio = async () => {
      const xs = await markXs(page);
      // Marks: A's three steps, the clock's move (a diamond in its lane), and A's heartbeat.
      const instant = xs[1]! - xs[0]!;
      return (xs[4]! - xs[2]!) / instant;
    };
    const onSteps = await ratio();
    expect(onSteps).toBeGreaterThan(1.9);
    expect(onSteps).toBeLessThan(3);
    await scaleBox(page).check();
    await expect(timeline(page)).toHaveAttribute('aria-label', /time to scale/);
    // 30 s at 0.15 slot a second is 4.5 slots, beside one slot for an instant.
    await expect.poll(ratio).toBeGreaterThan(5);
    await scaleBox(page).uncheck();
    await expect.poll(ratio).toBeCloseTo(onSteps, 3);
  });

  test('stuck-heartbeat: A’s hung model call is a span in its lane while its heartbeats renew the lease', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=stuck-heartbeat&strategy=skip-locked&fencing=on');
    await stepToEnd(page);
    // The span (the legend has a swatch of its own, without a title).
    const hung = timeline(page).locator('rect.tl-hung:has(title)');
    await expect(hung).toHaveCount(1);
    await expect(hung.locator('title')).toHaveText(/A's model call hangs/);
    expect((await leaseOfA(page)).renewals).toBeGreaterThanOrEqual(3);
    expect(await crowdedLabels(page)).toEqual([]);
    await scaleBox(page).check();
    await expect(hung).toHaveCount(1);
    expect(await crowdedLabels(page)).toEqual([]);
  });
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  // One page per window size: each further scenario's link is opened in it, as a link followed in the
  // tab, on the Postgres the first one started ("time to scale" stays on from the first).
  const scenarios = ['crash-orphan', 'paused-worker', 'stuck-heartbeat'];
  test(`${scenarios.join(', ')}, time to scale, at ${width}×${height}: no timeline label touches another or an expiry marker, at any step`, async ({
    page,
  }) => {
    test.setTimeout(scenarios.length * 240_000);
    await page.setViewportSize({ width, height });
    for (const [i, scenario] of scenarios.entries()) {
      await test.step(scenario, async () => {
        const link = `scenario=${scenario}&strategy=skip-locked&fencing=on`;
        if (i === 0) await openLab(page, link);
        else await openLinkInPlace(page, link);
        await stepToEnd(page);
        await scaleBox(page).check();
        const last = Number(await slider(page).getAttribute('max'));
        for (let step = last; step >= 1; step--) {
          await showSteps(page, step);
          expect(await crowdedLabels(page), `${scenario}, step ${step}`).toEqual([]);
        }
      });
    }
  });
}
