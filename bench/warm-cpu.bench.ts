/**
 * Where a returning learner's start spends CPU, phase by phase: the built app loaded once in a fresh browser
 * profile (its offline copy saved, V8's code cache written), then again in it with a Chromium trace of the
 * whole browser, each thread's own CPU time (trace `tdur`) split by the engine worker's marks
 * (src/db/pglite-boot.ts, src/webworker/engine.worker.ts): files in (JS compile and evaluate, the wasm's bytes
 * and code cache, the data directory, the rest), Postgres started, the lab open, the warm-up, and the page's
 * main thread before and after the engine said ready. Several builds side by side, alternating load by load,
 * so a busy machine moves them alike; CPU time moves far less with the machine's load than wall time.
 *
 *   node --experimental-websocket --import tsx --import ./scripts/raw-loader.mjs bench/warm-cpu.bench.ts dist-a,dist-b [rounds=3]
 *
 * Chromium over the DevTools protocol directly, not Playwright: Playwright turns on the protocol's Network
 * domain for the page and its workers, which took ~150 ms more of the engine worker's CPU as the files came in
 * (the inspector's copy of each response) and hid what reading a bigger file costs a learner.
 * (--experimental-websocket: Node 20 has WebSocket behind it.) Traces are written to BENCH_TRACE_DIR if set.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStaticServer } from '../scripts/serve-static';
import { CHROMIUM_ARGS, median } from './lib';

const DISTS = (process.argv[2] ?? 'dist').split(',');
const ROUNDS = Number(process.argv[3] ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 0);
const CATS = 'toplevel,v8,v8.wasm,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,loading,v8.execute';

interface Ev {
  name: string;
  ph?: string;
  ts?: number;
  dur?: number;
  tdur?: number;
  tid?: number;
  pid?: number;
  args?: { name?: string };
}

/** Marks ready in the page's own timeline (so the trace has it) and keeps its time for the bench. */
const INIT = `(() => { const o = new MutationObserver(() => { if (document.documentElement?.dataset.labReady === 'true') { performance.mark('bench:ready'); window.__ready = performance.now(); o.disconnect(); } }); o.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-lab-ready'] }); })();`;

/** Each event's own CPU (tdur minus its children's), spread over its own wall time (minus its children's) and split by the phase of each instant. */
function selfCpu(
  events: Ev[],
  tid: number,
  pid: number,
  from: number,
  to: number,
  phaseOf: (e: Ev, ts: number) => string,
  cuts: number[] = [],
): Record<string, number> {
  const tasks = events
    .filter((e) => e.tid === tid && e.pid === pid && e.ph === 'X' && e.ts !== undefined && e.ts + (e.dur ?? 0) > from && e.ts < to)
    .sort((a, b) => a.ts! - b.ts! || (b.dur ?? 0) - (a.dur ?? 0));
  const totals: Record<string, number> = {};
  type Open = { e: Ev; end: number; phase: string; self: number; kids: Array<[number, number]> };
  const open: Open[] = [];
  const bounds = [...cuts].sort((a, b) => a - b);
  const finish = (d: Open) => {
    // own wall intervals
    const own: Array<[number, number]> = [];
    let at = d.e.ts!;
    for (const [a, b] of d.kids) {
      if (a > at) own.push([at, a]);
      at = Math.max(at, b);
    }
    if (d.end > at) own.push([at, d.end]);
    const wall = own.reduce((t, [a, b]) => t + (b - a), 0);
    if (wall <= 0) {
      totals[d.phase] = (totals[d.phase] ?? 0) + d.self / 1000;
      return;
    }
    for (const [a, b] of own) {
      // split [a,b] at cuts
      const pts = [a, ...bounds.filter((c) => c > a && c < b), b];
      for (let i = 0; i + 1 < pts.length; i++) {
        const lo = Math.max(pts[i]!, from),
          hi = Math.min(pts[i + 1]!, to);
        if (hi <= lo) continue;
        let phase = phaseOf(d.e, (pts[i]! + pts[i + 1]!) / 2);
        if (phase.endsWith('*')) phase = d.phase.startsWith('!') ? d.phase.slice(1) : phase.slice(0, -1);
        totals[phase] = (totals[phase] ?? 0) + (d.self * (hi - lo)) / wall / 1000;
      }
    }
  };
  const close = (until: number) => {
    while (open.length && open.at(-1)!.end <= until) finish(open.pop()!);
  };
  for (const e of tasks) {
    close(e.ts!);
    const cpu = e.tdur ?? 0;
    const end = e.ts! + (e.dur ?? 0);
    const parent = open.at(-1);
    if (parent) {
      parent.self -= cpu;
      parent.kids.push([e.ts!, end]);
    }
    const own = phaseOf(e, e.ts!);
    // A named phase (no '*') sticks to the event and its unnamed children; '*' means: by the instant, or the parent's named phase.
    const phase = !own.endsWith('*') ? `!${own}` : parent?.phase.startsWith('!') ? parent.phase : own;
    open.push({ e, end, phase, self: cpu, kids: [] });
  }
  close(Infinity);
  return totals;
}

function analyze(events: Ev[], ready: number): Record<string, number> | null {
  const mark = (name: string) => events.find((e) => e.name === `lease-lab:${name}`);
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const eng = mark('engine-script');
  const readyEv = events.find((e) => e.name === 'bench:ready');
  if (!eng || !readyEv) return null;
  const m = (n: string) => mark(n)?.ts ?? NaN;
  const nav = events
    .filter((e) => e.pid === readyEv.pid && e.tid === readyEv.tid && e.ph === 'X')
    .map((e) => e.ts!)
    .sort((a, b) => a - b)[0]!;
  const end = readyEv.ts!;
  const engPhase = (e: Ev, ts: number): string => {
    if (ts < m('files-in')) {
      if (e.name.startsWith('wasm.')) return 'E files: wasm bytes/deserialize';
      if (e.name === 'DecompressionStream Inflate') return 'E files: data dir inflate';
      if (e.name === 'v8.compileModule' || e.name === 'v8.compile') return 'E files: JS compile';
      if (e.name === 'v8.evaluateModule') return 'E files: JS evaluate*';
      return 'E files: other*';
    }
    if (ts < m('postgres-started')) return 'E postgres start*';
    if (ts < m('lab-open')) return 'E first statements (lab open)*';
    if (ts < m('warmed-up')) return 'E warm-up (3 steps)*';
    return 'E after warm-up*';
  };
  const cutsE = ['files-in', 'postgres-started', 'lab-open', 'warmed-up'].map(m);
  const row: Record<string, number> = {};
  for (const [k, v] of Object.entries(selfCpu(events, eng.tid!, eng.pid!, nav, end, engPhase, cutsE))) row[k] = v;
  const mainPhase = (e: Ev, ts: number) => {
    const when = ts < m('warmed-up') ? 'M before engine ready' : 'M after engine ready';
    if (/^(v8\.compile|v8\.parseOnBackground|v8\.produce|v8\.consume|CompileScript|v8\.compileModule)/.test(e.name)) return `${when}: JS compile`;
    if (
      /^(Paint|Layout|UpdateLayoutTree|PrePaint|Commit|UpdateLayer|Layerize|ScheduleStyleRecalculation|ParseAuthorStyleSheet|HitTest|IntersectionObserverController)/.test(
        e.name,
      )
    )
      return `${when}: style/layout/paint`;
    if (/^(FunctionCall|v8\.evaluateModule|EvaluateScript|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|v8\.callFunction|v8\.run)/.test(e.name))
      return `${when}: JS run*`;
    return `${when}: other*`;
  };
  for (const [k, v] of Object.entries(selfCpu(events, readyEv.tid!, readyEv.pid!, nav, end, mainPhase, [m('warmed-up')]))) row[k] = v;
  // other threads (service worker etc.)
  const other: Record<string, number> = {};
  const threads = new Set(events.filter((e) => e.ph === 'X' && e.ts! >= nav && e.ts! < end).map((e) => `${e.pid}:${e.tid}`));
  for (const t of threads) {
    const [pid, tid] = t.split(':').map(Number);
    if ((tid === eng.tid && pid === eng.pid) || (tid === readyEv.tid && pid === readyEv.pid)) continue;
    const tot = Object.values(selfCpu(events, tid!, pid!, nav, end, () => 'x')).reduce((a, b) => a + b, 0);
    const nm = names.get(t) ?? t;
    if (tot > 3) other[`O ${nm}`] = (other[`O ${nm}`] ?? 0) + tot;
  }
  Object.assign(row, other);
  row['W ready (page ms)'] = ready;
  for (const n of ['wasm-compiled', 'pglite-script', 'data-dir-read', 'files-in', 'postgres-started', 'lab-open', 'warmed-up'])
    row[`W mark ${n}`] = (m(n) - nav) / 1000;
  return row;
}

function report(rows: Record<string, number>[]) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();
  for (const k of keys) {
    const v = rows.map((r) => r[k] ?? 0);
    console.log(`${k.padEnd(48)} ${median(v).toFixed(0).padStart(6)}   [${v.map((x) => x.toFixed(0)).join(' ')}]`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the protocol's messages, read field by field
type Msg = { id?: number; method?: string; params?: any; result?: any; error?: unknown; sessionId?: string };

/** One cold load (the copy saved, the code cache written), then a warm one traced. */
async function warmTrace(url: string): Promise<{ events: Ev[]; ready: number }> {
  const cats = CATS;
  const init = INIT;
  const dir = mkdtempSync(join(tmpdir(), 'lease-lab-warm-cpu-'));
  const proc = spawn(
    '/usr/bin/chromium',
    [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${dir}`, '--window-size=1280,720', 'about:blank'],
    { stdio: 'ignore' },
  );
  try {
    const portFile = join(dir, 'DevToolsActivePort');
    for (let i = 0; i < 200 && !existsSync(portFile); i++) await new Promise((s) => setTimeout(s, 100));
    const [port, path] = readFileSync(portFile, 'utf8').trim().split('\n');
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    await new Promise((s, f) => {
      ws.onopen = s;
      ws.onerror = f;
    });
    let next = 1;
    const waiting = new Map<number, (m: Msg) => void>();
    const listeners: Array<(m: Msg) => void> = [];
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Msg;
      if (m.id && waiting.has(m.id)) {
        waiting.get(m.id)!(m);
        waiting.delete(m.id);
      } else for (const l of listeners) l(m);
    };
    const send = (method: string, params: object = {}, sessionId?: string): Promise<Msg['result']> =>
      new Promise((s, f) => {
        const id = next++;
        waiting.set(id, (m) => (m.error ? f(new Error(`${method}: ${JSON.stringify(m.error)}`)) : s(m.result)));
        ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    const openPage = async () => {
      const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
      await send('Page.enable', {}, sessionId);
      await send('Page.addScriptToEvaluateOnNewDocument', { source: init }, sessionId);
      return { targetId, sessionId };
    };
    const evaluate = async (sessionId: string, expression: string) =>
      (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)).result.value;
    const until = async (sessionId: string, expression: string, ms = 120000) => {
      for (const end = Date.now() + ms; Date.now() < end; ) {
        try {
          const v = await evaluate(sessionId, expression);
          if (v) return v;
        } catch {}
        await new Promise((s) => setTimeout(s, 100));
      }
      throw new Error(`timed out: ${expression}`);
    };
    // Cold visit: saves the copy.
    const cold = await openPage();
    await send('Page.navigate', { url }, cold.sessionId);
    await until(cold.sessionId, 'window.__ready !== undefined');
    await until(
      cold.sessionId,
      "!!document.querySelector('.offline-indicator') && document.querySelector('.offline-indicator').textContent.includes('Works offline')",
    );
    await new Promise((s) => setTimeout(s, 4000));
    await send('Target.closeTarget', { targetId: cold.targetId });
    // Warm visit, traced browser-wide.
    const warm = await openPage();
    await new Promise((s) => setTimeout(s, 800));
    const events: Ev[] = [];
    let complete!: () => void;
    const done = new Promise<void>((s) => {
      complete = s;
    });
    listeners.push((m) => {
      if (m.method === 'Tracing.dataCollected') events.push(...m.params.value);
      if (m.method === 'Tracing.tracingComplete') complete();
    });
    await send('Tracing.start', { categories: cats, transferMode: 'ReportEvents' });
    await send('Page.navigate', { url }, warm.sessionId);
    const ready = await until(warm.sessionId, 'window.__ready');
    await new Promise((s) => setTimeout(s, 300));
    await send('Tracing.end');
    await done;
    ws.close();
    return { events, ready };
  } finally {
    const exited = new Promise((s) => proc.once('exit', s));
    proc.kill();
    await Promise.race([exited, new Promise((s) => setTimeout(s, 5000))]);
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    } catch {}
  }
}

async function main(): Promise<void> {
  const servers = await Promise.all(DISTS.map((root) => startStaticServer({ root, mount: '/lab/', port: PORT })));
  const rowsOf: Record<string, number>[][] = DISTS.map(() => []);
  try {
    for (let k = 0; k < ROUNDS * DISTS.length; k++) {
      const which = k % DISTS.length;
      const { events, ready } = await warmTrace(servers[which]!.url);
      if (process.env.BENCH_TRACE_DIR)
        writeFileSync(join(process.env.BENCH_TRACE_DIR, `warm-${which}-${Math.floor(k / DISTS.length)}.json`), JSON.stringify(events));
      const row = analyze(events, ready);
      if (row) rowsOf[which]!.push(row);
      console.log(`${DISTS[which]}: ready ${ready.toFixed(0)} ms${row ? '' : ' (marks missing from the trace)'}`);
    }
  } finally {
    for (const server of servers) await server.close();
  }
  DISTS.forEach((dist, i) => {
    console.log(`\n== ${dist} (CPU ms, median [each load]; E engine worker, M page main thread, O other threads, W wall ms since navigation)`);
    report(rowsOf[i]!);
  });
}

await main();
