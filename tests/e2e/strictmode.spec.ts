/**
 * React's StrictMode runs effects twice in development: the lab must still start exactly one engine
 * worker (one Postgres), because the worker is created outside React.
 */
import { DEV_PORT } from '../../playwright.config';
import { expect, outcome, test } from './fixtures';

test('the development build starts one engine worker under StrictMode', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${DEV_PORT}/#scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B`);
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 120_000 });
  await expect(outcome(page)).toContainText('Step 4:');
  const engines = page.workers().filter((worker) => worker.url().includes('engine.worker'));
  expect(engines).toHaveLength(1);
});
