/** The first lesson: SELECT then UPDATE lets two workers run one job; an atomic claim does not. */
import { expect, openLinkInPlace, outcome, runsTable, sharedLabPage, stepTimes, test } from './fixtures';

// Both tests open their own link in one page (one Postgres start for the two), as links followed in the tab.
test.describe('links opened in one page', () => {
  const lab = sharedLabPage();

  test('the naive race: A and B both execute run 123', async () => {
    const page = lab();
    // A scenario of its own first, so that choosing the race in the picker opens it afresh.
    await openLinkInPlace(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=&step=0');
    await page.getByLabel('Scenario').selectOption({ label: 'Two workers, two pending runs' });
    await expect(page.getByLabel('Strategy')).toHaveValue('naive');
    await stepTimes(page, 2);
    await expect(outcome(page)).toContainText('B read run 123 as pending');
    await stepTimes(page, 4);
    await expect(outcome(page)).toContainText('Run 123 was executed by both A and B');
    await expect(outcome(page)).toContainText('model calls were paid for one run');
    // The details explain the selected step with its real SQL and parameters.
    await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('$1 = 123');
    await expect(runsTable(page)).toContainText('B');
  });

  test('the atomic claim (SKIP LOCKED) prevents it under the same steps', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await stepTimes(page, 10);
    await expect(outcome(page)).toContainText('executed by both A and B');
    await page.getByLabel('Strategy').selectOption('skip-locked');
    // The same ten steps, replayed at once with the atomic claim.
    await expect(page).toHaveURL(/strategy=skip-locked/);
    await expect(page).toHaveURL(/schedule=A,B,A,B,A,B,A,B,A,B/);
    await expect(outcome(page)).not.toContainText('executed by both');
    const rows = runsTable(page).getByRole('row');
    await expect(rows.filter({ hasText: '123' })).toContainText('A');
    await expect(rows.filter({ hasText: '124' })).toContainText('B');
  });
});
