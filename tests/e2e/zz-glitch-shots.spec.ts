import { expect, openLab, test } from './fixtures';
test.use({ serviceWorkers: 'allow', reducedMotion: 'no-preference' });
for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`shots ${size.width}`, async ({ page, context }) => {
    await page.setViewportSize(size);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\.wasm$/, async (route) => { await held; await route.continue(); });
    await page.goto('/');
    await expect(page.getByRole('region', { name: /Start here/ })).toBeVisible();
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/glitch/shots/starting-${size.width}.png` });
    release();
    await openLab(page);
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `/tmp/glitch/shots/ready-${size.width}.png` });
  });
}
