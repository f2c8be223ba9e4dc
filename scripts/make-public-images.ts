/**
 * Draws the PNG files in public/ from their sources, in Debian's Chromium: the icons from
 * public/favicon.svg (32 px for browsers without SVG icons, 180 px for iOS, 192 and 512 px for the web
 * app manifest) and the social preview (og-image.png, 1200×630) from the README's race screenshot.
 * `npm run screenshots` runs it after retaking the screenshots.
 *   node --import tsx scripts/make-public-images.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = join(ROOT, 'public');
const ICON_SIZES = [32, 180, 192, 512] as const;
const PREVIEW = { width: 1200, height: 630, source: join(ROOT, 'docs/screenshots/race-double-execution.png') };

const dataUrl = (file: string, type: string) => `data:${type};base64,${readFileSync(file).toString('base64')}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const icon = dataUrl(join(PUBLIC, 'favicon.svg'), 'image/svg+xml');
  for (const size of ICON_SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<style>html,body{margin:0;background:transparent}</style><img src="${icon}" width="${size}" height="${size}">`);
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(join(PUBLIC, `icon-${size}.png`), await page.screenshot({ omitBackground: true }));
    await page.close();
  }
  const page = await browser.newPage({ viewport: { width: PREVIEW.width, height: PREVIEW.height } });
  // The screenshot is 16:9; the preview is 1.91:1, so it keeps the top (header, toolbar, timeline).
  await page.setContent(
    `<style>html,body{margin:0}img{width:${PREVIEW.width}px;height:${PREVIEW.height}px;object-fit:cover;object-position:top}</style><img src="${dataUrl(PREVIEW.source, 'image/png')}">`,
  );
  await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
  writeFileSync(join(PUBLIC, 'og-image.png'), await page.screenshot());
  await page.close();
} finally {
  await browser.close();
}
console.log(`wrote ${ICON_SIZES.map((s) => `icon-${s}.png`).join(', ')} and og-image.png into public/`);
