/** Downloads: the timeline as SVG and PNG, the trace as JSON. */
import { readFile } from 'node:fs/promises';
import { expect, openLab, test } from './fixtures';
import { showAllControls } from './disclosure';

test('exports the timeline as SVG and PNG and the trace as JSON', async ({ page }) => {
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B,A,B&step=6');
  await showAllControls(page);
  const menu = page.locator('summary', { hasText: 'Export' });

  await menu.click();
  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Timeline as SVG' }).click()]);
  expect(svg.suggestedFilename()).toBe('lease-lab-race-naive-fencing-off-step-6.svg');
  const svgText = await readFile((await svg.path())!, 'utf8');
  expect(svgText).toMatch(/^<svg|^<\?xml/);
  expect(svgText).toContain('</svg>');

  await menu.click();
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Timeline as PNG' }).click()]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  const pngBytes = await readFile((await png.path())!);
  expect(pngBytes.subarray(1, 4).toString('ascii')).toBe('PNG');

  await menu.click();
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Trace as JSON' }).click()]);
  const trace = JSON.parse(await readFile((await json.path())!, 'utf8'));
  expect(trace.scenario).toBe('race');
  expect(trace.schedule).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
  expect(trace.anomalies.map((a: { kind: string }) => a.kind)).toContain('duplicate-execution');
});
