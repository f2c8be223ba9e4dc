import { test } from './fixtures';
for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`debug ${size.width}`, async ({ page }) => {
    test.use;
    await page.setViewportSize(size);
    await page.goto('/', { waitUntil: 'commit' });
    const t0 = Date.now();
    for (let i = 0; i < 30; i++) {
      await page.screenshot({ path: `/tmp/glitch/s${size.width}-${String(i).padStart(2, '0')}-${Date.now() - t0}.png` }).catch(() => {});
      await page.waitForTimeout(150);
    }
  });
}
