/**
 * An instructor's walk: write a scenario in the editor (a wrong field says what is wrong), play it, open
 * its link in a fresh browser (the same view), and embed it in a page of another origin served by the
 * project's own static server (whose header allows framing) and step it there. Hostile scenario links end
 * in a clear notice. Screenshots of the editor and the embed at 1440×900 and 390×844 go to test-results/.
 */
import { readFileSync } from 'node:fs';
import { seriousViolations } from './axe';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Page } from '@playwright/test';
import { startStaticServer, type StaticServer } from '../../scripts/serve-static';
import { type ScenarioSpec, scenarioFromSpec } from '../../src/scenarios/authored';
import { encodeSpec } from '../../src/scenarios/link';
import { expect, notices, openLab, position, runsTableAfter, shot, slider, stepTimes, test, waitReady } from './fixtures';
import { showAllControls } from './disclosure';

const DIST = process.env.E2E_DIST ?? 'dist';
const SHOTS = 'test-results/scenario-editor';
const SCRIPT = 'A,A,A,B,B,B,+120,+301,C,C,C,+60,A';
/** The name B claims under, given in the editor: it travels in the link. */
const B_NAME = 'host:web pid:7';
/** The id of the scenario the editor downloaded as JSON: the one the page then plays. */
let downloadedId: string | null = null;

/** Writes the case in the editor: three workers, a 5-minute lease, A pausing at 15:02. */
async function authorScenario(page: Page, shots = false): Promise<void> {
  await showAllControls(page);
  await page.getByRole('button', { name: 'Write a scenario…' }).click();
  const editor = page.getByRole('dialog', { name: 'Your scenario' });
  await expect(editor).toBeVisible();
  await editor.getByLabel('Title').fill('Our queue: A pauses during its lease');
  await editor.getByLabel('Description, line 1').fill('Three workers, two tenants, a five-minute lease.');
  await editor.getByLabel('Line 2 (optional)').fill('A freezes for six minutes at 15:02, then writes.');
  await editor.getByLabel('Workers', { exact: true }).selectOption('3');
  await editor.getByLabel("Worker B's name").fill(B_NAME);
  // A wrong field says what is wrong, under the field, and the scenario cannot be played.
  await editor.getByLabel('Lease (seconds)').fill('0');
  await expect(editor.getByText('The lease must be a whole number of seconds from 1 to 86400, not 0.')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Play this scenario' })).toBeDisabled();
  await editor.getByLabel('Lease (seconds)').fill('300');
  await editor.getByLabel('Workers heartbeat').uncheck();
  await editor.getByLabel('Run 1 id').fill('501');
  await editor.getByRole('button', { name: 'Add a run' }).click();
  await editor.getByLabel('Tenant').nth(1).fill('globex');
  await editor.getByLabel('Cost so far (cents)').nth(1).fill('120');
  await editor.getByRole('button', { name: 'Add a pause' }).click();
  await editor.getByLabel('At (s)').fill('120');
  await editor.getByLabel('For (s)').fill('360');
  const steps = editor.getByLabel(/^Steps, comma-separated/);
  await steps.fill('A,D');
  await expect(editor.getByText('Step 2 (D): this scenario has no worker D; its workers are A, B, C.')).toBeVisible();
  if (shots) {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await shot(page, `${SHOTS}/editor-${width}x${height}.png`);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  await steps.fill(SCRIPT);
  await expect(editor.getByText('Ready to play.')).toBeVisible();
  if (shots) {
    // The same scenario as JSON, for `npm run sim -- run --scenario-file` (tests/unit/cli-scenario.test.ts).
    const [file] = await Promise.all([page.waitForEvent('download'), editor.getByRole('button', { name: 'Download JSON' }).click()]);
    const spec = JSON.parse(readFileSync((await file.path())!, 'utf8')) as ScenarioSpec;
    expect(spec).toMatchObject({
      version: 1,
      workers: 3,
      workerNames: { B: B_NAME },
      leaseSeconds: 300,
      heartbeatSeconds: null,
      runs: [{ runId: 501 }, { runId: 502, tenant: 'globex', costCents: 120 }],
      script: SCRIPT.split(','),
    });
    expect(spec.faults).toEqual([{ kind: 'pause', worker: 'A', atSeconds: 120, forSeconds: 360 }]);
    downloadedId = scenarioFromSpec(spec).scenario?.id ?? null;
  }
  await editor.getByRole('button', { name: 'Play this scenario' }).click();
  await expect(editor).toBeHidden();
}

test('author a scenario, play it, and open its link in a fresh browser: the same view', async ({ page, browser }) => {
  await openLab(page);
  await authorScenario(page, true);
  await expect(page.locator('#scenario option:checked')).toHaveText('Our queue: A pauses during its lease');
  await expect(page.locator('#scenario-summary')).toHaveText(
    /Three workers, two tenants, a five-minute lease\.\s*A freezes for six minutes at 15:02, then writes\./,
  );
  await waitReady(page);
  // The runs as written, oldest first, with their tenants (two of them, so the table shows the column) and cost.
  expect(await runsTableAfter(page, 0)).toMatch(/^run_id\ttenant\t[^\n]*\n501\tacme\tpending[^\n]*\t0\tNULL\n502\tglobex\tpending[^\n]*\t120\tNULL$/);
  await stepTimes(page, 9);
  const table = await runsTableAfter(page, 9);
  expect(table).toMatch(/501[\s\S]*running[\s\S]*A/);
  // The address carries the whole scenario (sc=) with the view.
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#scenario=authored-[0-9a-f]{8}&sc=1\.[\w-]+&strategy=skip-locked&fencing=on&schedule=.*&step=9$/);
  const link = page.url();
  expect(new URL(link).hash).toContain(`#scenario=${downloadedId}&`);

  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(link);
    await waitReady(other);
    await expect(other.locator('#scenario option:checked')).toHaveText('Our queue: A pauses during its lease');
    await expect(slider(other)).toHaveValue('9');
    expect(await runsTableAfter(other, 9)).toBe(table);
    await expect(notices(other)).toHaveText('');
    await expect(other.getByRole('article', { name: 'Worker B' }).locator('.worker-name')).toHaveText(B_NAME);
    // It steps on, as a built-in scenario does: the script's pause, then C reclaims A's run.
    await stepTimes(other, 3);
    expect(await runsTableAfter(other, 12)).toMatch(/501\tacme\trunning\tC\t2/);
  } finally {
    await fresh.close();
  }
});

let framed: StaticServer | null = null;
let host: Server | null = null;
test.afterEach(async () => {
  await framed?.close();
  framed = null;
  await new Promise<void>((resolve) => (host ? host.close(() => resolve()) : resolve()));
  host = null;
});

/** A course page on another origin (another port) framing `src`. */
async function hostPage(src: string): Promise<string> {
  const html = `<!doctype html><html><head><title>Course page</title></head><body><h1>Week 3: leases</h1><label>Notes <input id="notes"></label><iframe src="${src}" title="Lease Lab" width="1000" height="700"></iframe></body></html>`;
  host = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => host!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(host!.address() as AddressInfo).port}/`;
}

const framePosition = async (frame: FrameLocator) => Number(await frame.getByRole('slider', { name: 'Step position' }).inputValue());

test('the Embed action gives a snippet; a page of another origin frames the lab and steps it there', async ({ page }) => {
  await openLab(page);
  await authorScenario(page);
  await waitReady(page);
  await stepTimes(page, 3);
  await expect.poll(() => new URL(page.url()).hash).toContain('&step=3');
  await page.getByText('Export', { exact: true }).click();
  await page.getByRole('button', { name: 'Embed…' }).click();
  // The dialog comes in a chunk of its own and fills its snippet once mounted: wait for it, not the box.
  const snippetBox = page.getByLabel('The iframe snippet');
  await expect(snippetBox).toHaveValue(/^<iframe /);
  const snippet = await snippetBox.inputValue();
  expect(snippet).toMatch(
    /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed#scenario=authored-[0-9a-f]{8}&amp;sc=1\.[\w-]+&amp;.*step=3" title="Lease Lab: Our queue: A pauses during its lease"/,
  );
  const src = /src="([^"]+)"/.exec(snippet)![1]!.replace(/&amp;/g, '&');

  // The frame's lab served as a production host serves it (the project's static server and its headers).
  framed = await startStaticServer({ root: DIST, port: 0 });
  const response = await page.request.get(framed.url);
  expect(response.headers()['content-security-policy']).toContain('frame-ancestors *');
  const embedded = src.replace(/^http:\/\/127\.0\.0\.1:\d+\//, framed.url);
  const course = await page.context().newPage();
  await course.goto(await hostPage(embedded));
  const frame = course.frameLocator('iframe[title="Lease Lab"]');
  await expect(frame.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
  // No chrome: no scenario picker, no lesson, no console; the title, one narration line and a way out.
  await expect(frame.getByRole('heading', { name: 'Our queue: A pauses during its lease' })).toBeVisible();
  await expect(frame.locator('#scenario')).toHaveCount(0);
  await expect(frame.getByRole('button', { name: 'Lesson ↓' })).toHaveCount(0);
  await expect(frame.getByRole('slider', { name: 'Step position' })).toHaveValue('3');
  const open = frame.getByRole('link', { name: 'Open in Lease Lab ↗' });
  await expect(open).toHaveAttribute('href', new RegExp(`^${framed.url.replace(/[.]/g, '\\.')}#scenario=authored-`));
  expect(await open.getAttribute('href')).not.toContain('embed');

  // Nothing is stored for the framed page before the learner acts in it.
  const frameStorage = () => course.frames()[1]!.evaluate(() => window.localStorage.getItem('lease-lab:place:v1'));
  expect(await frameStorage()).toBeNull();

  // Keys typed in the course page stay there; once the frame has focus, they step the lab.
  await course.locator('#notes').focus();
  await course.keyboard.press('ArrowRight');
  await expect(frame.getByRole('slider', { name: 'Step position' })).toHaveValue('3');
  await frame.getByRole('button', { name: 'Next step', exact: true }).click();
  await expect(frame.getByRole('slider', { name: 'Step position' })).toHaveValue('4');
  // "of 4 so far; the script has N more moves" while the script goes on (issue 31, 7.5).
  await expect(frame.locator('.embed-narration')).toHaveText(/^Step 4 of \d+( so far[^:]*)?: /);
  await course.keyboard.press('ArrowRight');
  await expect(frame.getByRole('slider', { name: 'Step position' })).toHaveValue('5');
  expect(await framePosition(frame)).toBe(5);
  // The learner acted: their place is kept now.
  await expect.poll(frameStorage).toContain('"step":5');

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await course.setViewportSize({ width, height });
    await course.goto(`${framed.url}${new URL(embedded).search}${new URL(embedded).hash}`);
    await expect(course.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
    await shot(course, `${SHOTS}/embed-${width}x${height}.png`);
  }
});

test('hostile scenario links end in a clear message and keep the learner where they were', async ({ page }) => {
  await openLab(page, 'scenario=paused-worker&schedule=A,A&step=2');
  await page.evaluate(() => {
    window.location.hash = '#scenario=authored-12345678&sc=2.eyJ0aXRsZSI6IngifQ&schedule=A';
  });
  await expect(notices(page)).toContainText(
    'The scenario in the link could not be opened: it was written by a newer Lease Lab (version 2); this one reads version 1. You are still where you were.',
  );
  await expect(page.locator('#scenario')).toHaveValue('paused-worker');
  expect(await position(page)).toBe(2);
  await page.evaluate(() => {
    window.location.hash = '#scenario=x&sc=1.eyJ0aXRsZSI6';
  });
  await expect(notices(page)).toContainText('it is not valid JSON');
  await expect(page.locator('#scenario')).toHaveValue('paused-worker');
  // A new visit with a broken scenario link opens the saved place instead of overwriting it.
  await page.goto('about:blank');
  await page.goto('/#scenario=x&sc=%ZZ');
  await waitReady(page);
  await expect(notices(page)).toContainText('The scenario in the link is not properly encoded');
  await expect(notices(page)).toContainText('The lab opened your saved place instead.');
  await expect(page.locator('#scenario')).toHaveValue('paused-worker');
});

test('an authored scenario is explored like a built-in one, and its witness links carry it', async ({ page }) => {
  const spec: ScenarioSpec = {
    version: 1,
    title: 'Ours: a 30 s lease and a crash',
    description: ['A claims run 900 and crashes at 0:05; B reclaims it once the lease is gone.', ''],
    workers: 2,
    runs: [{ runId: 900, tenant: 'initech', costCents: 80 }],
    leaseSeconds: 30,
    heartbeatSeconds: null,
    strategy: 'naive',
    fencing: false,
    faults: [{ kind: 'crash', worker: 'A', atSeconds: 5 }],
    script: [],
  };
  const id = scenarioFromSpec(spec).scenario!.id;
  await openLab(page, `scenario=${id}&sc=${encodeSpec(spec)}`);
  await expect(page.locator('#scenario option:checked')).toHaveText(spec.title);
  const panel = page.getByRole('region', { name: 'Every schedule' });
  await panel.scrollIntoViewIfNeeded();
  await page.getByRole('button', { name: 'Explore all schedules' }).click();
  await expect(panel.getByRole('status')).toContainText(/Explored all [\d,]+ schedules/, { timeout: 150_000 });
  const witness = panel
    .getByRole('list', { name: 'Outcome groups' })
    .getByRole('listitem')
    .first()
    .getByRole('link', { name: /Open a shortest witness/ });
  await expect(witness).toHaveAttribute('href', new RegExp(`^#scenario=${id}&sc=1\\.`));
  await witness.click();
  await expect(page.locator('#scenario option:checked')).toHaveText(spec.title);
  await expect(notices(page)).toHaveText('');
});

// One axe pass per page state, the two in different themes (a11y.spec.ts checks the lab itself in both).
test('the editor (a field in error, dark) and the embedded lab (light) have no serious accessibility violations', async ({ page }) => {
  await openLab(page);
  await showAllControls(page);
  await page.getByRole('button', { name: 'Write a scenario…' }).click();
  const editor = page.getByRole('dialog', { name: 'Your scenario' });
  await editor.getByLabel('Lease (seconds)').fill('0');
  await expect(editor.getByLabel('Lease (seconds)')).toHaveAccessibleDescription('The lease must be a whole number of seconds from 1 to 86400, not 0.');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await seriousViolations(page), 'editor, dark').toEqual([]);
  await page.goto('/?embed#scenario=paused-worker&schedule=A,A,A&step=3');
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await seriousViolations(page), 'embed, light').toEqual([]);
});
