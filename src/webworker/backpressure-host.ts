/**
 * The backpressure lab inside the engine's worker, on the race lab's own PGlite: its rows live in schema
 * backpressure and every one of its transactions scopes search_path and the clock to itself (see
 * pglite-backpressure.ts), so the two labs share one Postgres per tab without touching each other.
 *
 * A request plays a stretch of one lane. The lane in play is kept between requests, so stretches follow
 * on at no cost; a request from any other second (a new worker after the watchdog replaced the last one)
 * replays the lane from its start to that second first. The lab is deterministic, so the replay lands on
 * the same numbers.
 */
import type { BackpressureDatabase } from '../db/port';
import { BackpressureSimulation, MAX_SECONDS } from '../engine/backpressure';
import type { BackpressureChunk, BackpressureRequest } from './protocol';

/** Progress is reported at least this often while a stretch plays, so the page's watchdog knows it is alive. */
const PROGRESS_EVERY_MS = 200;

export class BackpressureHost {
  private db: Promise<BackpressureDatabase> | null = null;
  private lane: { key: string; sim: BackpressureSimulation } | null = null;
  private lastProgressMs = 0;

  constructor(
    /** The database to play on, opened on first use (in the worker: the race lab's PGlite). */
    private readonly open: () => Promise<BackpressureDatabase>,
    private readonly onProgress: () => void = () => {},
    /** Wall-clock milliseconds, only to pace progress reports (the simulation never reads it). */
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  async play(request: BackpressureRequest): Promise<BackpressureChunk> {
    const from = Math.max(0, Math.floor(request.from));
    const until = Math.min(MAX_SECONDS, from + Math.max(1, Math.floor(request.seconds)));
    const sim = await this.laneAt(request, from);
    const claimsBefore = sim.result().claims.length;
    while (!sim.isOver() && sim.second < until) {
      await sim.tick();
      this.progress();
    }
    const lane = sim.result();
    return {
      ticks: lane.ticks.slice(from),
      claims: lane.claims.slice(claimsBefore),
      totalRuns: lane.totalRuns,
      steps: lane.steps,
      done: sim.isOver(),
      finished: lane.finished,
    };
  }

  /** The requested lane standing at second `from` (or at its end, if it ends sooner). */
  private async laneAt(request: BackpressureRequest, from: number): Promise<BackpressureSimulation> {
    const key = JSON.stringify([request.config, request.policy]);
    if (this.lane?.key === key && this.lane.sim.second === from) return this.lane.sim;
    // The table is about to be emptied: forget the lane first, in case anything below fails.
    this.lane = null;
    const sim = new BackpressureSimulation(await this.database(), request.config, request.policy);
    await sim.reset();
    while (!sim.isOver() && sim.second < from) {
      await sim.tick();
      this.progress();
    }
    this.lane = { key, sim };
    return sim;
  }

  private database(): Promise<BackpressureDatabase> {
    if (!this.db) {
      this.db = this.open();
      // A failed start is tried again on the next request.
      this.db.catch(() => {
        this.db = null;
      });
    }
    return this.db;
  }

  private progress(): void {
    const now = this.nowMs();
    if (now - this.lastProgressMs < PROGRESS_EVERY_MS) return;
    this.lastProgressMs = now;
    this.onProgress();
  }
}
