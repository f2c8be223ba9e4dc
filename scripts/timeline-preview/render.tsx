/**
 * Renders the timeline for the preview traces to standalone HTML files and screenshots them with
 * Debian's Chromium (dev only):
 *
 *   npm run timeline:render -- [out-dir] [--dark] [--widths=1280,800]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { timelineHeight } from '../../src/timeline/layout';
import { Timeline } from '../../src/timeline/Timeline';
import { buildPreviewTraces } from './traces';

const args = process.argv.slice(2);
const dark = args.includes('--dark');
const out = resolve(args.find((a) => !a.startsWith('--')) ?? '/tmp/timeline-preview');
mkdirSync(out, { recursive: true });

const traces = await buildPreviewTraces();
const widths = (args.find((a) => a.startsWith('--widths='))?.slice('--widths='.length) ?? '1280,800').split(',').map(Number);
for (const [name, trace] of traces) {
  for (const width of widths) {
    const positions: [string, number][] = [['full', trace.steps.length]];
    if (name === 'race' || name === 'paused-fenced') positions.push(['mid', Math.ceil(trace.steps.length / 2)]);
    for (const [tag, position] of positions) {
      const selected = Math.max(0, position - 1);
      const markup = renderToStaticMarkup(<Timeline trace={trace} position={position} selected={selected} onSelect={() => {}} width={width} />);
      const height = timelineHeight(trace, width, position) + 24;
      const html = `<!doctype html><html${dark ? ' data-theme="dark"' : ''}><head><meta charset="utf-8"><title>${name}</title>
<style>html,body{margin:0;background:${dark ? '#16191d' : '#fff'}}</style></head><body>${markup}</body></html>`;
      const file = join(out, `${name}-${tag}-${width}${dark ? '-dark' : ''}.html`);
      writeFileSync(file, html);
      const png = file.replace(/\.html$/, '.png');
      execFileSync(
        '/usr/bin/chromium',
        ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--screenshot=${png}`, `--window-size=${width},${height}`, `file://${file}`],
        { stdio: 'ignore' },
      );
      console.log(png);
    }
  }
}
