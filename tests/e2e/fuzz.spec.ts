/**
 * Seeded UI fuzzing: a learner who presses everything. Each seed makes a sequence of actions over every
 * control of the lab (worker steps, Step, Back, Play/Pause, Reset, faults, clock, fencing, strategy,
 * scenario, links, the SQL console, the quiz), played on the built app through its DOM. After every action
 * one page.evaluate checks the invariants: the timeline draws exactly the trace's steps up to the cursor,
 * the runs table shows the trace's table at that step (and, on console actions, what Postgres itself
 * answers), Back then Step returns the same view, quiz answers are never lost; the fixture fails the
 * test on any console error, page error or unhandled rejection.
 *
 * A failure prints the seed and the shortest action list found that still fails (each candidate is
 * replayed on a fresh page). `npm run fuzz -- --seed N [--actions K]` replays one seed; `npm run fuzz` alone
 * plays every seed four times as long as `npm test` does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { pick, seededRandom } from '../../src/sim/random';
import { STRATEGIES } from '../../src/sim/types';
import { expect, test } from './fixtures';

// Thousands of evaluate calls: a trace would snapshot the page at each one and cost more than the test.
test.use({ trace: 'off' });

/**
 * Seeds and actions per seed in `npm test`: 4 × 125 = 500 actions, every invariant checked after each one.
 * `npm run fuzz` and `npm run bench -- robustness` play the long run, the same seeds × 500 = 2,000 actions
 * (FUZZ_ACTIONS=500). A seed's list does not depend on its length: the short run is the long run's first quarter.
 */
const CI_SEEDS = [11, 22, 33, 44];
const CI_ACTIONS = 125;
const SEEDS = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : CI_SEEDS;
const ACTIONS = process.env.FUZZ_ACTIONS ? Number(process.env.FUZZ_ACTIONS) : CI_ACTIONS;
/** Seeds played at the same time, each on its own page. */
const PARALLEL = Number(process.env.FUZZ_PARALLEL ?? 2);
/** Replays the shrinker may spend on one failure (each loads a fresh page). */
const SHRINK_REPLAYS = Number(process.env.FUZZ_SHRINK_REPLAYS ?? 40);

/** An action, with the random numbers that pick its target in the page (so a list replays exactly). */
type Action =
  | { kind: 'step' | 'back' | 'play' | 'reset' | 'fencing' | 'expiry' | 'console' | 'bad-sql' }
  | { kind: 'worker'; op: 'Step' | 'Pause' | 'Resume' | 'Crash' | 'Restart'; pick: number }
  | { kind: 'clock'; seconds: number }
  | { kind: 'operator'; op: 'Cancel run' | 'Kill its worker'; pick: number }
  | { kind: 'strategy'; strategy: string }
  | { kind: 'scenario'; pick: number }
  | { kind: 'speed'; pick: number }
  | { kind: 'seek'; pick: number }
  | { kind: 'key'; key: string }
  | { kind: 'link'; fragment: string }
  | { kind: 'quiz'; question: number; choice: number };

const TOKENS = ['A', 'A', 'B', 'B', 'C', '+10', '+30', '+90', 'pause:A', 'resume:A', 'crash:B', 'restart:B', 'cancel:123', 'kill:123', 'resume:B', 'Z', '+0'];

function randomLink(random: () => number): string {
  const roll = random();
  if (roll < 0.08)
    return pick(random, [
      'scenario=race&schedule=%ZZ',
      'scenario=%E0%A4%A',
      'scenario=<b>x</b>&step=<i>',
      'top',
      'scenario=nope&schedule=A',
      'scenario=race&step=-1',
    ]);
  const scenario =
    random() < 0.05
      ? 'no-such-scenario'
      : pick(random, ['race', 'paused-worker', 'three-workers', 'lock-wait', 'crash-orphan', 'heartbeat', 'cancel-durable', 'cancel-kill', 'stuck-heartbeat']);
  const strategy = random() < 0.05 ? 'magic' : pick(random, STRATEGIES);
  const tokens = Array.from({ length: Math.floor(random() * 9) }, () => pick(random, TOKENS));
  const step = pick(random, ['', '&step=0', '&step=1', '&step=3', '&step=end', `&step=${Math.floor(random() * 12)}`]);
  return `scenario=${scenario}&strategy=${strategy}&fencing=${random() < 0.5 ? 'on' : 'off'}&schedule=${tokens.join(',')}${step}`;
}

/** The action list of a seed: the same seed always gives the same list. */
function actionsFor(seed: number, count: number): Action[] {
  const random = seededRandom(seed);
  const weighted: [number, () => Action][] = [
    [16, () => ({ kind: 'worker', op: 'Step', pick: random() })],
    [12, () => ({ kind: 'step' })],
    [8, () => ({ kind: 'back' })],
    [2, () => ({ kind: 'play' })],
    [3, () => ({ kind: 'reset' })],
    [3, () => ({ kind: 'worker', op: pick(random, ['Pause', 'Resume', 'Crash', 'Restart'] as const), pick: random() })],
    [4, () => ({ kind: 'clock', seconds: pick(random, [1, 10, 30, 60, 90, 300]) })],
    [2, () => ({ kind: 'expiry' })],
    [1, () => ({ kind: 'operator', op: pick(random, ['Cancel run', 'Kill its worker'] as const), pick: random() })],
    [3, () => ({ kind: 'fencing' })],
    [3, () => ({ kind: 'strategy', strategy: pick(random, STRATEGIES) })],
    [3, () => ({ kind: 'scenario', pick: random() })],
    [1, () => ({ kind: 'speed', pick: random() })],
    [2, () => ({ kind: 'seek', pick: random() })],
    [3, () => ({ kind: 'key', key: pick(random, ['ArrowRight', 'ArrowLeft', '1', '2', '3', 'r']) })],
    [3, () => ({ kind: 'link', fragment: randomLink(random) })],
    [3, () => ({ kind: 'console' })],
    [1, () => ({ kind: 'bad-sql' })],
    [3, () => ({ kind: 'quiz', question: random(), choice: random() })],
  ];
  const total = weighted.reduce((sum, [w]) => sum + w, 0);
  const actions: Action[] = [];
  for (let i = 0; i < count; i++) {
    let roll = random() * total;
    for (const [weight, make] of weighted) {
      roll -= weight;
      if (roll < 0) {
        actions.push(make());
        break;
      }
    }
  }
  return actions;
}

/** What one action did in the page, and whether every invariant held afterwards. */
interface ActionReport {
  ok: boolean;
  did: string;
  problem?: string;
  /** Console answers compared with the runs table. */
  dbChecks: number;
  backForward: number;
}

/**
 * Installed in the page once: performs an action through the DOM, waits for the app's own signal that it
 * is idle (no request queued, Postgres ready, the console not running), then checks the invariants.
 * Self-contained: Playwright sends its source to the page.
 */
function installDriver(): void {
  type Value = string | number | boolean | null;
  interface Step {
    verdict: string;
    runs: Record<string, Value>[];
  }
  interface State {
    pending: number;
    loaded: boolean;
    enginePhase: string;
    playing: boolean;
    position: number;
    selected: number | null;
    steps: Step[];
    initialRuns: Record<string, Value>[];
    pause(): void;
  }
  const hook = (window as unknown as { leaseLab: { store: { getState(): State }; panels: { getState(): State } } }).leaseLab;
  const store = hook.store;
  const COLUMNS = [
    'run_id',
    'status',
    'lease_owner',
    'lease_generation',
    'lease_expires_at',
    'heartbeat_at',
    'cancel_requested',
    'progress',
    'cost_cents',
    'result',
  ];
  // Where the runs belong to more than one tenant the table shows the tenant beside the run's id (RunsTable).
  const severalTenants = (rows: Record<string, Value>[]) => new Set(rows.map((row) => row.tenant)).size > 1;
  const columnsFor = (rows: Record<string, Value>[]) => (severalTenants(rows) ? ['run_id', 'tenant', ...COLUMNS.slice(1)] : COLUMNS);
  const runsSql = (rows: Record<string, Value>[]) => (severalTenants(rows) ? RUNS_SQL.replace('SELECT run_id,', 'SELECT run_id, tenant,') : RUNS_SQL);
  const RUNS_SQL = `SELECT run_id, status, lease_owner, lease_generation, to_char(lease_expires_at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS lease_expires_at, to_char(heartbeat_at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS heartbeat_at, cancel_requested, progress, cost_cents, result FROM runs ORDER BY run_id`;
  const answered = new Set<string>();
  const lab = document.getElementById('lab-top')!;

  // A message-channel turn: lets React commit and the worker answer, without setTimeout's 4 ms clamp.
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  const tick = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
  const button = (root: ParentNode, name: string): HTMLButtonElement | undefined =>
    [...root.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name);
  const click = (element: HTMLElement | undefined | null): boolean => {
    if (!element || (element as HTMLButtonElement).disabled) return false;
    element.click();
    return true;
  };
  /** Sets a React-controlled field the way typing or choosing does. */
  const setValue = (element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, value: string, event: 'change' | 'input') => {
    const proto = Object.getPrototypeOf(element) as object;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(element, value);
    element.dispatchEvent(new Event(event, { bubbles: true }));
  };
  /** The console's editor once its body's code has come (the panel shows "Loading the console…" until then). */
  async function consoleEditor(panel: HTMLDetailsElement, timeoutMs = 30_000): Promise<HTMLTextAreaElement> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      await tick();
      const editor = panel.querySelector<HTMLTextAreaElement>('textarea');
      if (editor) return editor;
      if (performance.now() > until) throw new Error(`the console's editor did not come within ${timeoutMs} ms: "${panel.textContent?.slice(0, 200)}"`);
    }
  }
  const consoleRunning = () => document.querySelector('.console-result')?.getAttribute('aria-busy') === 'true';

  async function idle(timeoutMs = 30_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      await tick();
      const s = store.getState();
      // The panels beside the timeline render a task after the store changes (store/trailing.ts).
      if (s.pending === 0 && s.loaded && s.enginePhase === 'ready' && !consoleRunning() && hook.panels.getState() === s) return;
      if (performance.now() > until)
        throw new Error(`the lab did not become idle within ${timeoutMs} ms (pending ${s.pending}, phase ${s.enginePhase}, loaded ${s.loaded})`);
    }
  }

  /** A cell as the runs table prints it: timestamps on the lab's clock, NULL for null. */
  const cell = (value: Value): string => {
    if (value === null) return 'NULL';
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)) return value.slice(11, 19);
    return String(value);
  };
  const tableCells = (table: Element | null | undefined): string[][] =>
    [...(table?.querySelectorAll('tbody tr') ?? [])].map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.firstChild?.textContent ?? '').trim()));
  const runsTableShown = () => tableCells(lab.querySelector('section.runs table'));

  /** The invariants that hold at every moment the lab is idle; the first one broken, or null. */
  function broken(): string | null {
    const s = store.getState();
    const total = s.steps.length;
    const slider = lab.querySelector<HTMLInputElement>('input[type=range]')!;
    if (Number(slider.value) !== s.position || Number(slider.max) !== total)
      return `slider shows ${slider.value}/${slider.max}, the store has ${s.position}/${total}`;
    const svg = lab.querySelector('svg.tl-svg');
    if (!svg) return 'no timeline';
    const label = svg.getAttribute('aria-label') ?? '';
    if (!label.includes(`: ${s.position} of ${total} steps shown`)) return `timeline label "${label}" does not say ${s.position} of ${total} steps`;
    // The marks drawn: a run of consecutive steps ending at the cursor (the view follows the latest), each
    // with its step's verdict.
    const marks = [...svg.querySelectorAll('path.tl-mark[data-step]')].map((m) => ({
      step: Number(m.getAttribute('data-step')),
      cls: m.getAttribute('class') ?? '',
    }));
    if (s.position === 0 && marks.length > 0) return `${marks.length} marks drawn before the first step`;
    if (s.position > 0) {
      if (marks.length === 0) return `no marks drawn at step ${s.position}`;
      if (marks.at(-1)!.step !== s.position - 1) return `the last mark drawn is step ${marks.at(-1)!.step + 1}, the cursor is at ${s.position}`;
      if (marks.length < Math.min(s.position, 5)) return `only ${marks.length} marks drawn at step ${s.position}`;
      for (const [i, mark] of marks.entries()) {
        if (i > 0 && mark.step !== marks[i - 1]!.step + 1) return `marks skip from step ${marks[i - 1]!.step + 1} to ${mark.step + 1}`;
        const verdict = s.steps[mark.step]?.verdict;
        if (!mark.cls.split(' ').includes(`tl-v-${verdict}`)) return `mark of step ${mark.step + 1} is "${mark.cls}", the trace says ${verdict}`;
      }
    }
    // The runs table: the trace's table after the step shown (no step is selected during the fuzz).
    const shown = s.selected !== null && s.selected < s.position ? s.selected + 1 : s.position;
    const rows = shown > 0 ? s.steps[shown - 1]!.runs : s.initialRuns;
    const expected = rows.map((row) => columnsFor(rows).map((c) => cell(row[c] ?? null)));
    const actual = runsTableShown();
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      return `runs table shows ${JSON.stringify(actual)}, the trace has ${JSON.stringify(expected)} after step ${shown}`;
    // Quiz answers are never lost (once the quiz is open, its score is on the page).
    const score = document.querySelector('.ll-quiz .ll-score')?.textContent ?? '';
    const count = /\((\d+) answered\)/.exec(score);
    if (count && Number(count[1]) < answered.size) return `the quiz says ${count[1]} answered, the learner answered ${answered.size}`;
    return null;
  }

  /** Invariants, given React a few turns to paint what the store already holds. */
  async function check(): Promise<string | null> {
    let problem = broken();
    for (let i = 0; i < 50 && problem !== null; i++) {
      await tick();
      problem = broken();
    }
    return problem;
  }

  function view(): string {
    const svg = lab.querySelector('svg.tl-svg');
    const marks = [...(svg?.querySelectorAll('path.tl-mark[data-step]') ?? [])].map((m) => `${m.getAttribute('data-step')}:${m.getAttribute('class')}`);
    // (The address is left out: it is written a moment later during a burst of steps, see store/sync.ts.)
    return JSON.stringify([svg?.getAttribute('aria-label'), marks, lab.querySelector('main.stage')?.textContent]);
  }

  /** Back then Step (which reveals the step again) must show exactly the same view. */
  async function backAndForth(): Promise<string | null> {
    const s = store.getState();
    if (s.position === 0 || s.playing) return null;
    const before = view();
    click(button(lab, 'Back'));
    await idle();
    const middle = await check();
    if (middle) return `after Back: ${middle}`;
    click(button(lab, 'Next step'));
    await idle();
    const after = await check();
    if (after) return `after Back and Step: ${after}`;
    const again = view();
    return again === before ? null : `Back then Step changed the view:\n  before ${before}\n  after  ${again}`;
  }

  async function perform(action: Action): Promise<{ did: string; dbCheck?: string | null }> {
    const picked = <T>(items: T[], r: number): T | undefined => items[Math.floor(r * items.length)];
    switch (action.kind) {
      case 'step':
      case 'back':
      case 'reset':
        return {
          did: click(button(lab, action.kind === 'step' ? 'Next step' : action.kind === 'back' ? 'Back' : 'Reset')) ? action.kind : `${action.kind} (off)`,
        };
      case 'play': {
        if (!click(button(lab, 'Play'))) return { did: 'play (off)' };
        await idle();
        const playing = await check();
        if (playing) return { did: 'play', dbCheck: `while playing: ${playing}` };
        click(button(lab, 'Pause'));
        return { did: 'play, then pause' };
      }
      case 'worker': {
        const buttons = [...lab.querySelectorAll<HTMLButtonElement>(`.worker-group button[aria-label^="${action.op} worker"]`)].filter((b) => !b.disabled);
        const target = picked(buttons, action.pick);
        return { did: click(target) ? (target!.getAttribute('aria-label') ?? '') : `${action.op} worker (none enabled)` };
      }
      case 'clock': {
        const select = lab.querySelector<HTMLSelectElement>('select:not(#scenario):not(#strategy) option[value="300"]')?.parentElement as HTMLSelectElement;
        setValue(select, String(action.seconds), 'change');
        await tick();
        return { did: click(button(lab, 'Advance clock')) ? `advance clock +${action.seconds} s` : 'advance clock (off)' };
      }
      case 'expiry': {
        const b = [...lab.querySelectorAll('button')].find((x) => x.textContent?.startsWith('To lease expiry'));
        return { did: click(b) ? (b!.textContent ?? '') : 'to lease expiry (off)' };
      }
      case 'operator': {
        const details = lab.querySelector<HTMLDetailsElement>('details.operator')!;
        details.open = true;
        const select = details.querySelector('select')!;
        const option = picked([...select.options], action.pick);
        if (option) setValue(select, option.value, 'change');
        await tick();
        return { did: click(button(details, action.op)) ? `${action.op} ${option?.value}` : `${action.op} (off)` };
      }
      case 'fencing': {
        const box = lab.querySelector<HTMLInputElement>('#fencing')!;
        box.click();
        return { did: `fencing ${box.checked ? 'on' : 'off'}` };
      }
      case 'strategy': {
        const select = lab.querySelector<HTMLSelectElement>('#strategy')!;
        if (select.value === action.strategy) return { did: `strategy ${action.strategy} (already)` };
        setValue(select, action.strategy, 'change');
        return { did: `strategy ${action.strategy}` };
      }
      case 'scenario': {
        const select = lab.querySelector<HTMLSelectElement>('#scenario')!;
        const option = picked([...select.options], action.pick)!;
        if (select.value === option.value) return { did: `scenario ${option.value} (already)` };
        setValue(select, option.value, 'change');
        return { did: `scenario ${option.value}` };
      }
      case 'speed': {
        const select = [...lab.querySelectorAll('select')].find((x) => x.closest('label')?.textContent?.includes('Speed'))!;
        const option = picked([...select.options], action.pick)!;
        setValue(select, option.value, 'change');
        return { did: `speed ${option.value}` };
      }
      case 'seek': {
        const slider = lab.querySelector<HTMLInputElement>('input[type=range]')!;
        if (slider.disabled) return { did: 'seek (off)' };
        const to = Math.round(action.pick * Number(slider.max));
        setValue(slider, String(to), 'input');
        return { did: `seek to ${to}` };
      }
      case 'key':
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key: action.key, bubbles: true, cancelable: true }));
        return { did: `key ${action.key}` };
      case 'link':
        location.hash = action.fragment;
        // hashchange fires after this task; the link's load is queued by then.
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { did: `open #${action.fragment}` };
      case 'console':
      case 'bad-sql': {
        const panel = lab.querySelector<HTMLDetailsElement>('details.console')!;
        panel.open = true;
        // Opened before the body's code has come (it is fetched in the first pause after the start), the
        // panel says "Loading the console…" until it has: the editor is there once it has.
        const editor = await consoleEditor(panel);
        const sql = action.kind === 'console' ? runsSql(store.getState().initialRuns) : 'SELECT no_such_column FROM runs';
        setValue(editor, sql, 'input');
        await tick();
        if (!click(button(panel, 'Run'))) return { did: 'console (off)' };
        await tick();
        await idle();
        const result = panel.querySelector('.console-result')!;
        const text = result.textContent ?? '';
        if (action.kind === 'bad-sql')
          return {
            did: 'console error',
            dbCheck: text.includes('column "no_such_column" does not exist') ? null : `the console shows "${text.slice(0, 200)}"`,
          };
        const at = /after step (\d+)|before the first step/.exec(text);
        if (!at) return { did: 'console', dbCheck: `no rows from the console: "${text.slice(0, 200)}"` };
        const stepsSeen = at[1] ? Number(at[1]) : 0;
        // Mid-move (a step revealed alone out of a move of several), the console sees the whole move.
        if (stepsSeen !== store.getState().position) return { did: 'console (mid-move)' };
        const fromPostgres = tableCells(result.querySelector('table'));
        const shown = runsTableShown();
        return {
          did: 'console runs',
          dbCheck:
            JSON.stringify(fromPostgres) === JSON.stringify(shown)
              ? null
              : `Postgres has ${JSON.stringify(fromPostgres)}, the runs table shows ${JSON.stringify(shown)}`,
        };
      }
      case 'quiz': {
        const quizTab = () => [...document.querySelectorAll<HTMLElement>('[role=tab]')].find((t) => t.textContent?.trim() === 'Quiz');
        // The lesson loads after the lab has started (src/ui/deferred.ts); a learner scrolling down at
        // once would see it arrive. Wait for it as they would, briefly.
        for (const until = performance.now() + 10_000; !quizTab() && performance.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
        const tab = quizTab();
        if (tab?.getAttribute('aria-selected') !== 'true') {
          tab?.click();
          await tick();
        }
        const quiz = document.querySelector('.ll-quiz');
        if (!quiz) return { did: 'quiz', dbCheck: 'the quiz did not open' };
        const nav = [...quiz.querySelectorAll<HTMLButtonElement>('nav[aria-label=Questions] button')];
        const target = picked(nav, action.question);
        target?.click();
        await tick();
        const card = quiz.querySelector('section.ll-question');
        if (!card) return { did: 'quiz', dbCheck: 'no question shown' };
        // Questions graded by running the engine take seconds; the lesson's own tests cover them.
        if (button(card, 'Run it')) return { did: 'quiz (a predict question, skipped)' };
        if (!card.querySelector('button[type=submit]')) {
          click(button(card, 'Try again'));
          await tick();
        }
        const inputs = [...card.querySelectorAll<HTMLInputElement>('input[type=radio], input[type=checkbox]')];
        picked(inputs, action.choice)?.click();
        await tick();
        const submit = card.querySelector<HTMLButtonElement>('button[type=submit]');
        if (!click(submit)) return { did: 'quiz (nothing to check)' };
        await tick();
        const title = card.querySelector('h3')?.textContent ?? '';
        answered.add(title.replace(/ of \d+.*$/, ''));
        return { did: `quiz: answered ${title.slice(0, 14)}` };
      }
    }
  }

  (window as unknown as { __fuzz: unknown }).__fuzz = {
    async run(action: Action): Promise<ActionReport> {
      let did = '';
      let dbChecks = 0;
      let backForward = 0;
      try {
        const done = await perform(action);
        did = done.did;
        if (done.dbCheck !== undefined) {
          if (done.dbCheck !== null) return { ok: false, did, problem: done.dbCheck, dbChecks, backForward };
          if (action.kind === 'console') dbChecks++;
        }
        await idle();
        if (store.getState().playing) {
          store.getState().pause();
          await idle();
        }
        const problem = (await check()) ?? (await backAndForth());
        if (problem === null && store.getState().position > 0) backForward++;
        return problem === null ? { ok: true, did, dbChecks, backForward } : { ok: false, did, problem, dbChecks, backForward };
      } catch (error) {
        return { ok: false, did, problem: `threw: ${error instanceof Error ? error.message : String(error)}`, dbChecks, backForward };
      }
    },
  };
}

interface RunResult {
  /** Index of the failing action, or -1. */
  failedAt: number;
  problem: string;
  did: string[];
  dbChecks: number;
  backForward: number;
}

/** Opens a fresh lab and installs the driver; page errors found later are reported through `errors`. */
async function freshLab(page: Page, errors: string[]): Promise<void> {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    window.addEventListener('unhandledrejection', (event) => console.error(`unhandled rejection: ${String(event.reason)}`));
  });
  await page.goto('/');
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', undefined, { timeout: 90_000 });
  // The free lab: every control the driver may use is shown, whatever the scenario uses.
  await page.getByRole('switch', { name: 'All controls' }).check();
  await page.evaluate(installDriver);
}

async function play(page: Page, errors: string[], actions: readonly Action[]): Promise<RunResult> {
  const did: string[] = [];
  let dbChecks = 0;
  let backForward = 0;
  for (const [index, action] of actions.entries()) {
    const report = await page.evaluate((a) => (window as unknown as { __fuzz: { run(a: Action): Promise<ActionReport> } }).__fuzz.run(a), action);
    did.push(report.did);
    dbChecks += report.dbChecks;
    backForward += report.backForward;
    const problem = report.ok ? (errors[0] ?? null) : (report.problem ?? 'failed');
    if (problem !== null) return { failedAt: index, problem, did, dbChecks, backForward };
  }
  return { failedAt: -1, problem: '', did, dbChecks, backForward };
}

/** Replays a candidate list on a fresh page of its own; true when it still fails. */
async function stillFails(browser: Browser, actions: readonly Action[]): Promise<boolean> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    await freshLab(page, errors);
    return (await play(page, errors, actions)).failedAt >= 0;
  } finally {
    await context.close();
  }
}

/** Delta debugging, bounded: drop chunks of the list while it still fails, halving the chunk size. */
async function shrink(browser: Browser, failing: Action[]): Promise<Action[]> {
  let list = failing;
  let replays = 0;
  for (let chunk = Math.max(1, Math.floor(list.length / 2)); chunk >= 1 && replays < SHRINK_REPLAYS; chunk = Math.floor(chunk / 2)) {
    for (let start = list.length - 1 - chunk; start >= 0 && replays < SHRINK_REPLAYS; start -= chunk) {
      // The last action is the one that failed: keep it.
      const candidate = [...list.slice(0, start), ...list.slice(start + chunk)];
      replays++;
      if (await stillFails(browser, candidate)) list = candidate;
    }
    if (chunk === 1) break;
  }
  return list;
}

/** CPU seconds used by this process and every process it started (the browser), from /proc (Linux). */
function cpuSeconds(): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  for (const [pid, t] of ticks) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p)) {
      if (p === process.pid) {
        total += t;
        break;
      }
    }
  }
  return total / 100;
}

interface SeedOutcome {
  seed: number;
  actions: Action[];
  result: RunResult;
  seconds: number;
}

async function fuzzSeed(browser: Browser, seed: number): Promise<SeedOutcome> {
  const actions = actionsFor(seed, ACTIONS);
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    await freshLab(page, errors);
    const started = performance.now();
    const result = await play(page, errors, actions);
    return { seed, actions, result, seconds: (performance.now() - started) / 1000 };
  } finally {
    await context.close();
  }
}

test(`fuzz: ${SEEDS.length} seed${SEEDS.length === 1 ? '' : 's'} × ${ACTIONS} actions keep every invariant`, async ({ browser }) => {
  // Generous: a busy machine is several times slower than the 90 s a quiet one needs.
  test.setTimeout(120_000 + (SEEDS.length * ACTIONS * 400) / PARALLEL + (SHRINK_REPLAYS > 0 ? 900_000 : 0));
  const started = performance.now();
  const cpuBefore = process.env.FUZZ_PROFILE ? cpuSeconds() : 0;
  // Two seeds at a time, each on a page of its own: one seed is a ping-pong between the page and its
  // Postgres worker, so two keep both cores of a small machine busy.
  const queue = [...SEEDS];
  const outcomes: SeedOutcome[] = [];
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, SEEDS.length) }, async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) outcomes.push(await fuzzSeed(browser, seed));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const played = outcomes.reduce((sum, o) => sum + (o.result.failedAt >= 0 ? o.result.failedAt + 1 : o.actions.length), 0);
  for (const { seed, result, seconds: s } of outcomes) {
    console.log(
      `fuzz seed ${seed}: ${result.did.length} actions in ${s.toFixed(1)} s, ${result.backForward} Back-then-Step checks, ${result.dbChecks} runs tables compared with Postgres, ${result.did.filter((d) => d.startsWith('Restart worker')).length} restarts`,
    );
  }
  console.log(
    `fuzz: ${played} actions over ${outcomes.length} seeds in ${seconds.toFixed(1)} s, page loads included: ${(played / seconds).toFixed(1)} actions/s`,
  );
  if (process.env.FUZZ_PROFILE) console.log(`fuzz: ${(cpuSeconds() - cpuBefore).toFixed(1)} CPU seconds (browser and test runner)`);

  const failed = outcomes.filter((o) => o.result.failedAt >= 0).sort((a, b) => a.result.failedAt - b.result.failedAt);
  if (failed.length > 0) {
    const { seed, actions, result } = failed[0]!;
    const shortest = await shrink(browser, actions.slice(0, result.failedAt + 1));
    throw new Error(
      [
        `fuzz seed ${seed} failed at action ${result.failedAt + 1} (${result.did.at(-1)}): ${result.problem}`,
        ...(failed.length > 1
          ? [
              `(seeds ${failed
                .slice(1)
                .map((o) => o.seed)
                .join(', ')} failed too)`,
            ]
          : []),
        `replay: npm run fuzz -- --seed ${seed} --actions ${result.failedAt + 1}`,
        `shortest failing list found (${shortest.length} actions):`,
        ...shortest.map((a) => `  ${JSON.stringify(a)}`),
      ].join('\n'),
    );
  }
  // With the CI seeds, a worker restarted under its name (restart:A) by a click, not only offered.
  if (SEEDS === CI_SEEDS && ACTIONS >= CI_ACTIONS)
    expect(outcomes.flatMap((o) => o.result.did).filter((d) => d.startsWith('Restart worker')).length).toBeGreaterThan(0);
  for (const { result, actions } of outcomes) {
    expect(result.did).toHaveLength(actions.length);
    // The checks ran: the cursor was past step 0 after most actions, and Postgres was asked about the runs table.
    expect(result.backForward).toBeGreaterThan(actions.length / 4);
    expect(result.dbChecks).toBeGreaterThan(0);
  }
});
