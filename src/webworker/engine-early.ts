/**
 * The engine worker's first import, so its body runs before the rest of the worker's modules are
 * evaluated: it asks for PGlite's script, its wasm and the data directory at once. On a returning
 * learner's start the worker's own modules took tens of milliseconds to evaluate, and these requests
 * (answered by the service worker from the saved copy) waited for them.
 */
import { requestBootFilesEarly } from '../db/pglite-boot';

// Not in live mode's way: live mode starts PGlite alongside the bridge anyway (engine.worker.ts).
requestBootFilesEarly();
// Not pre-paid here: the first tiny wasm module Emscripten compiles for PGlite's addFunction (15–40 ms of this
// thread's CPU in a returning learner's start). A module of the same shape compiled here took under 1 ms and
// left PGlite's as slow as before (one traced warm visit): that cost follows PGlite's own module, not the first compile.
