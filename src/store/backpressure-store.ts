/**
 * The backpressure view's own store (vanilla zustand, like the lab's): the knobs, both claim policies'
 * results as the worker streams them, and the second being shown. The results are computed ahead and
 * revealed by the cursor, so Play, Step, a link and Back all land on the same numbers.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { findPreset, type KnobId } from '../sim/backpressure/presets';
import { type BackpressureConfig, CLAIM_POLICIES, type ClaimPolicy } from '../sim/backpressure/types';
import type { BackpressureChunk } from '../webworker/protocol';
import { type BackpressureLink, decodeBackpressureLink, encodeBackpressureLink } from './backpressure-link';

/** A lane as played so far: the same fields as the engine's chunks, from second 0. */
export type LaneState = BackpressureChunk;

type BackpressurePhase = 'starting' | 'running' | 'done' | 'failed';

export interface BackpressureState extends BackpressureLink {
  /** The view is on screen. */
  active: boolean;
  phase: BackpressurePhase;
  error: string | null;
  lanes: Record<ClaimPolicy, LaneState>;
  /** The second shown (clamped to what has been computed). */
  cursor: number;
  playing: boolean;
  /** Simulated seconds per second of playback. */
  speed: number;
  /** Opens the view at a link (a fragment, with or without "#"). */
  open(fragment: string): void;
  close(): void;
  choosePreset(id: string): void;
  setKnob(id: KnobId, value: number | null): void;
  play(): void;
  pause(): void;
  step(): void;
  toEnd(): void;
  rewind(): void;
  seek(second: number): void;
  setSpeed(speed: number): void;
}

export type BackpressureStore = StoreApi<BackpressureState>;

/** Play these claim policies' lanes under this config; a newer request (a higher id) replaces it. */
export interface LanesRequest {
  id: number;
  config: BackpressureConfig;
  policies: ClaimPolicy[];
}

/** New seconds of one lane since the last chunk; `finished` and `steps` describe the lane so far. */
interface LaneChunk extends BackpressureChunk {
  kind: 'chunk';
  id: number;
  policy: ClaimPolicy;
}

/** What the store hears from the backpressure lab: Postgres started (or not), a lane's next seconds, a request that failed. */
export type BackpressureEvent =
  | { kind: 'ready'; bootMs: number }
  | { kind: 'boot-failed'; message: string }
  | LaneChunk
  | { kind: 'error'; id: number; message: string };

/** The backpressure lab, as the store needs it (backpressure-client.ts: the page's LabClient, the race lab's Web Worker; tests pass a fake). */
export interface BackpressureClient {
  send(request: LanesRequest): void;
  subscribe(listener: (event: BackpressureEvent) => void): () => void;
}

export interface BackpressureDeps {
  /** Created on first open: the view's requests then go to the page's Web Worker, beside the race lab's. */
  client: () => BackpressureClient;
  /** Calls back on the next frame with a timestamp in ms (requestAnimationFrame in the browser). */
  frame: (callback: (now: number) => void) => void;
}

const emptyLane = (): LaneState => ({ ticks: [], claims: [], totalRuns: 0, steps: 0, done: false, finished: false });
const emptyLanes = (): Record<ClaimPolicy, LaneState> => ({ fifo: emptyLane(), fair: emptyLane() });

/** The last second that can be shown now: every lane still computing must have reached it. */
export function lastShowable(lanes: Record<ClaimPolicy, LaneState>): number {
  let end = 0;
  let limit = Number.POSITIVE_INFINITY;
  for (const policy of CLAIM_POLICIES) {
    const lane = lanes[policy];
    end = Math.max(end, lane.ticks.length - 1);
    if (!lane.done) limit = Math.min(limit, lane.ticks.length - 1);
  }
  return Math.max(0, Math.min(end, limit));
}

/**
 * How far the simulation has got, from 0 to 1: per claim policy, the share of its runs finished (done or
 * stopped), averaged over the policies (they are played one after the other, so it grows from the first
 * stretch to the last).
 */
export function simulatedShare(lanes: Record<ClaimPolicy, LaneState>): number {
  let sum = 0;
  for (const policy of CLAIM_POLICIES) {
    const lane = lanes[policy];
    const last = lane.ticks.at(-1);
    sum += lane.done ? 1 : !last || lane.totalRuns === 0 ? 0 : Math.min(1, (last.done + last.stopped) / lane.totalRuns);
  }
  return sum / CLAIM_POLICIES.length;
}

export function allDone(lanes: Record<ClaimPolicy, LaneState>): boolean {
  return CLAIM_POLICIES.every((policy) => lanes[policy].done);
}

export function linkOf(state: BackpressureState): string {
  return encodeBackpressureLink({ presetId: state.presetId, config: state.config, at: state.at });
}

export const BACKPRESSURE_SPEEDS = [10, 30, 60, 120] as const;

export function createBackpressureStore(deps: BackpressureDeps): BackpressureStore {
  let client: BackpressureClient | null = null;
  let request = 0;
  /** Play's last frame time; null when not playing. */
  let lastFrame: number | null = null;
  let position = 0;

  const store = createStore<BackpressureState>()((set, get) => {
    const simulate = (link: BackpressureLink) => {
      if (!client) {
        client = deps.client();
        client.subscribe(receive);
      }
      request += 1;
      lastFrame = null;
      position = link.at ?? 0;
      set({ ...link, phase: get().phase === 'starting' ? 'starting' : 'running', error: null, lanes: emptyLanes(), cursor: 0, playing: false });
      client.send({ id: request, config: link.config, policies: [...CLAIM_POLICIES] });
    };

    const receive = (message: BackpressureEvent) => {
      if (message.kind === 'ready') {
        if (get().phase === 'starting') set({ phase: 'running' });
        return;
      }
      if (message.kind === 'boot-failed') return set({ phase: 'failed', error: `Postgres did not start: ${message.message}`, playing: false });
      if (message.id !== request) return;
      if (message.kind === 'error') return set({ phase: 'failed', error: message.message, playing: false });
      const lanes = { ...get().lanes };
      const lane = lanes[message.policy];
      lanes[message.policy] = {
        ticks: lane.ticks.concat(message.ticks),
        claims: lane.claims.concat(message.claims),
        totalRuns: message.totalRuns,
        steps: message.steps,
        done: message.done,
        finished: message.finished,
      };
      const done = allDone(lanes);
      const state = get();
      // Not playing: the link's second (or, with none, the newest computed second) as soon as it exists.
      const showable = lastShowable(lanes);
      const cursor = state.playing ? state.cursor : Math.min(state.at ?? showable, showable);
      set({ lanes, phase: done ? 'done' : 'running', cursor });
    };

    const tick = (now: number) => {
      const state = get();
      if (!state.playing) return;
      const dt = lastFrame === null ? 0 : Math.min(0.25, (now - lastFrame) / 1000);
      lastFrame = now;
      const limit = lastShowable(state.lanes);
      position = Math.min(limit, Math.max(position, state.cursor) + dt * state.speed);
      const cursor = Math.floor(position);
      const finished = allDone(state.lanes) && cursor >= limit;
      set({ cursor, playing: !finished, at: finished ? null : cursor });
      if (!finished) deps.frame(tick);
    };

    const moveTo = (second: number) => {
      const cursor = Math.max(0, Math.min(lastShowable(get().lanes), Math.round(second)));
      position = cursor;
      set({ cursor, playing: false, at: cursor });
    };

    const initial = decodeBackpressureLink('');
    return {
      ...initial,
      active: false,
      phase: 'starting',
      error: null,
      lanes: emptyLanes(),
      cursor: 0,
      playing: false,
      speed: 30,

      open(fragment) {
        const link = decodeBackpressureLink(fragment);
        const state = get();
        const same =
          state.active && encodeBackpressureLink({ ...link, at: 0 }) === encodeBackpressureLink({ ...state, at: 0 }) && state.lanes.fifo.ticks.length > 0;
        set({ active: true });
        if (same) {
          if (link.at === null) moveTo(lastShowable(get().lanes));
          else moveTo(link.at);
          set({ at: link.at });
          return;
        }
        simulate(link);
      },
      close() {
        set({ active: false, playing: false });
      },
      choosePreset(id) {
        const preset = findPreset(id);
        if (!preset) return;
        simulate({ presetId: id, config: preset.config, at: null });
      },
      setKnob(id, value) {
        const state = get();
        simulate({ presetId: state.presetId, config: { ...state.config, [id]: value }, at: null });
      },
      play() {
        const state = get();
        if (state.playing) return;
        if (allDone(state.lanes) && state.cursor >= lastShowable(state.lanes)) position = 0;
        else position = state.cursor;
        lastFrame = null;
        set({ playing: true, cursor: Math.floor(position) });
        deps.frame(tick);
      },
      pause() {
        set({ playing: false, at: get().cursor });
      },
      step() {
        moveTo(get().cursor + 1);
      },
      toEnd() {
        moveTo(lastShowable(get().lanes));
        if (allDone(get().lanes)) set({ at: null });
      },
      rewind() {
        moveTo(0);
      },
      seek(second) {
        moveTo(second);
      },
      setSpeed(speed) {
        set({ speed });
      },
    };
  });
  return store;
}

/**
 * Keeps the address in step with the view (replaceState while the view changes; the links into and out
 * of the view push, so Back returns to it) and follows links pasted or reached with Back.
 */
export function connectBackpressureOutside(store: BackpressureStore, win: Window): () => void {
  const isOurs = (hash: string) => hash.replace(/^#/, '').startsWith('backpressure');
  let written = '';
  if (isOurs(win.location.hash)) store.getState().open(win.location.hash);
  const unsubscribe = store.subscribe((state, previous) => {
    if (!state.active || state.playing) return;
    if (
      state.config === previous.config &&
      state.cursor === previous.cursor &&
      state.at === previous.at &&
      state.active === previous.active &&
      state.phase === previous.phase
    )
      return;
    const fragment = linkOf(state);
    if (fragment === written || !isOurs(win.location.hash)) return;
    written = fragment;
    win.history.replaceState(win.history.state, '', `#${fragment}`);
  });
  const onHashChange = () => {
    const hash = win.location.hash;
    if (isOurs(hash)) {
      if (hash.replace(/^#/, '') !== written) store.getState().open(hash);
      else if (!store.getState().active) store.getState().open(hash);
    } else if (store.getState().active) {
      store.getState().close();
    }
  };
  win.addEventListener('hashchange', onHashChange);
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}
