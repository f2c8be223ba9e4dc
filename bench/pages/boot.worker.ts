/// <reference lib="webworker" />
import { bootLab } from '../../src/db/pglite-boot';

export interface BootReport {
  source?: string;
  fallbackReason?: string | null;
  ms?: number;
  marks?: { files: number; started: number };
  error?: string;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
bootLab().then(
  async (boot) => {
    await boot.db.pg.query('SELECT 1');
    scope.postMessage({ source: boot.source, fallbackReason: boot.fallbackReason, ms: boot.ms, marks: boot.marks } satisfies BootReport);
  },
  (error: unknown) => scope.postMessage({ error: String(error) } satisfies BootReport),
);
