/** Small helpers shared by the benchmarks: statistics and a plain-text table. */
import { cpus, loadavg } from 'node:os';

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Nearest-rank quantile (p95 of 200 samples is the 190th smallest). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  if (q === 0.5 && sorted.length % 2 === 0) return (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface Row {
  what: string;
  median?: string;
  p95?: string;
  range?: string;
  n?: number | string;
  target?: string;
  /** true: meets the target, false: misses it, undefined: no target. */
  ok?: boolean;
}

export function printTable(title: string, rows: readonly Row[], headings: Partial<Record<Exclude<keyof Row, 'ok'>, string>> = {}): void {
  const header: Row = { what: 'what', median: 'median', p95: 'p95', range: 'min–max', n: 'n', target: 'target', ...headings };
  const cells = (row: Row) => [
    row.what,
    row.median ?? '',
    row.p95 ?? '',
    row.range ?? '',
    String(row.n ?? ''),
    row.target ? `${row.target}${row.ok === undefined ? '' : row.ok ? '  ✓' : '  ✗ missed'}` : '',
  ];
  // Columns no row uses are left out.
  const used = [0, 1, 2, 3, 4, 5].filter((i) => i === 0 || rows.some((row) => cells(row)[i] !== ''));
  const all = [header, ...rows].map((row) => used.map((i) => cells(row)[i]!));
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => [...r[i]!].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(all[0]!));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of all.slice(1)) console.log(line(r));
}

export function ms(value: number, digits = 0): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : '—';
}

export function seconds(valueMs: number): string {
  return Number.isFinite(valueMs) ? `${(valueMs / 1000).toFixed(2)} s` : '—';
}

export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

export function kib(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(2)} MB` : `${(bytes / 1024).toFixed(0)} kB`;
}

export function range(values: readonly number[], format: (v: number) => string): string {
  if (values.length === 0) return '';
  return `${format(Math.min(...values))}–${format(Math.max(...values))}`;
}

/** How busy the machine is: benchmarks on a shared 2-core machine move with the load. */
export function machineLine(): string {
  const [one, five] = loadavg();
  return `${cpus().length} cores, load average ${one!.toFixed(2)} (1 min) ${five!.toFixed(2)} (5 min), Node ${process.versions.node}`;
}

export function runsFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The flags every benchmark launches Debian's Chromium with: headless as root, and no background traffic that would take CPU from a timing. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
