import { useLab } from '../store/react';

/** Postgres is starting (or restarting, or could not start): say so, and offer a way out. */
export function EngineBanner() {
  const phase = useLab((s) => s.enginePhase);
  const message = useLab((s) => s.engineMessage);
  const retryEngine = useLab((s) => s.retryEngine);
  if (phase === 'failed') {
    return (
      <div className="banner banner-error" role="alert">
        <span>{message ?? 'Postgres could not start.'}</span>
        <button type="button" onClick={retryEngine}>
          Try again
        </button>
      </div>
    );
  }
  if (phase === 'starting') {
    return (
      <div className="banner banner-starting" aria-hidden="true">
        <span className="spinner" />
        <span>{message ?? 'Starting Postgres… (PGlite, a real PostgreSQL compiled to WebAssembly, runs in a Web Worker in this tab)'}</span>
      </div>
    );
  }
  return null;
}
