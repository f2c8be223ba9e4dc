// The engine's start alone, without the app: the lab's boot in a Web Worker, as the app's worker does it.
import type { BootReport } from './boot.worker';

const status = document.getElementById('status')!;
const worker = new Worker(new URL('./boot.worker.ts', import.meta.url), { type: 'module' });
worker.onmessage = (event: MessageEvent<BootReport>) => {
  const report = event.data;
  (window as unknown as { benchBoot: BootReport }).benchBoot = report;
  status.textContent = report.error ? `Failed: ${report.error}` : `Postgres answered (${report.source}, ${report.ms} ms in the worker).`;
  document.documentElement.dataset.labReady = report.error ? 'failed' : 'true';
};
