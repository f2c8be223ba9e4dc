/** Links from outside can be wrong in every way; each opens something sensible and says what was wrong. */
import { expect, notices, openLab, slider, test } from './fixtures';

const BROKEN: { name: string; fragment: string; says: RegExp; scenario: string; position: string }[] = [
  { name: 'unknown scenario', fragment: 'scenario=no-such-thing&schedule=A,B', says: /There is no scenario "no-such-thing"/, scenario: 'race', position: '0' },
  { name: 'unknown strategy', fragment: 'scenario=race&strategy=magic&schedule=A,B', says: /There is no strategy "magic"/, scenario: 'race', position: '2' },
  {
    name: 'bad token',
    fragment: 'scenario=race&schedule=A,B,jump,A&step=2',
    says: /Step 3 of the schedule is wrong: "jump" is not a schedule step/,
    scenario: 'race',
    position: '2',
  },
  {
    name: 'token that cannot apply',
    fragment: 'scenario=race&schedule=A,resume:A,B',
    says: /Step 2 \("resume:A"\) cannot happen at that point: A is not paused/,
    scenario: 'race',
    position: '1',
  },
  {
    name: 'position out of range',
    fragment: 'scenario=race&schedule=A,B&step=99',
    says: /asks for step 99, but this schedule has 2 steps/,
    scenario: 'race',
    position: '2',
  },
  { name: 'absurd length', fragment: `scenario=race&schedule=${'A,'.repeat(20_000)}`, says: /characters long/, scenario: 'race', position: '0' },
  {
    name: 'HTML in a parameter',
    fragment: `scenario=${encodeURIComponent('<img src=x onerror=alert(1)>')}&strategy=${encodeURIComponent('<b>bold</b>')}`,
    says: /There is no scenario "<img src=x onerror=alert\(1\)>"/,
    scenario: 'race',
    position: '0',
  },
  {
    name: 'bad percent-encoding',
    fragment: 'scenario=paused-worker&schedule=A%E0%A4%A',
    says: /not properly encoded/,
    scenario: 'paused-worker',
    position: '0',
  },
  // "Your SQL" in a link (store/your-sql-link.ts): statements PostgreSQL's parser rejects, or a shape the lab refuses, are not played.
  {
    name: 'Your SQL that is markup',
    fragment: `scenario=race&strategy=your-sql&schedule=A,B&claim=${encodeURIComponent('<img src=x onerror=alert(1)>')}`,
    says: /Its SQL was not played: the claim: line 1, column 1: syntax error at or near "<"/,
    scenario: 'race',
    position: '2',
  },
  {
    name: 'Your SQL that is not a claim',
    fragment: `scenario=race&strategy=your-sql&schedule=A,B&claim=${encodeURIComponent('DROP TABLE runs')}`,
    says: /Its SQL was not played: the claim: refused/,
    scenario: 'race',
    position: '2',
  },
];

for (const link of BROKEN) {
  test(`a broken link (${link.name}) shows a notice and a working lab`, async ({ page }) => {
    await openLab(page, link.fragment);
    await expect(notices(page)).toContainText('This link could not be opened exactly as written.');
    await expect(notices(page)).toContainText(link.says);
    await expect(page.getByLabel('Scenario')).toHaveValue(link.scenario);
    await expect(slider(page)).toHaveValue(link.position);
    // Text from the link is shown as text, never as markup.
    await expect(page.locator('img[src="x"], .notices b, .notices img')).toHaveCount(0);
    // The lab still works, and the address bar now holds a valid link.
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await expect(page).toHaveURL(/#scenario=[a-z-]+&strategy=[a-z-]+&fencing=(on|off)&schedule=[^&]*&step=\d+$/);
  });
}

test('damaged saved state shows a notice and loads the defaults', async ({ page }) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('lease-lab:place:v1', '{"scenario": "race", "schedule": [');
      sessionStorage.setItem('seeded', '1');
    }
  });
  await openLab(page);
  await expect(notices(page)).toContainText('Your saved place could not be read (the stored data is damaged)');
  await expect(page.getByLabel('Scenario')).toHaveValue('race');
  await expect(slider(page)).toHaveValue('0');
});

test('a notice can be dismissed', async ({ page }) => {
  await openLab(page, 'scenario=nope');
  await page.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(notices(page)).toBeEmpty();
});
