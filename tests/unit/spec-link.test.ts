/**
 * A spec in the lab's link (store/spec-link.ts): it round-trips, a spec too long for a link is refused in one
 * line that says what to do instead, and a damaged `spec=` opens the rest of the link with one message.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLabStore } from '../../src/store/lab-store';
import { encodeView } from '../../src/store/permalink';
import { SPEC_DRAFT_KEY } from '../../src/store/spec-draft';
import { decodeSpecLink, encodeSpecLink, MAX_SPEC_LINK_CHARS, specLinkValue, specOrderOf, specStepOf, withSpecLink } from '../../src/store/spec-link';
import { linkFragment } from '../../src/store/sync';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { labDatabase } from '../support/lab';
import { MemoryStorage } from '../support/memory-storage';

const naive = readFileSync(join(__dirname, '../../docs/examples/claim-naive.spec'), 'utf8');

async function fits(text: string): Promise<string> {
  const link = await encodeSpecLink(text);
  if (link.kind !== 'fits') throw new Error(link.message);
  return link.value;
}

/** Flips bits in the middle of the deflated bytes, keeping the base64url alphabet. */
function damaged(value: string): string {
  const at = Math.floor(value.length / 2);
  return `${value.slice(0, at)}${value[at] === 'A' ? 'z' : 'A'}${value[at + 1] === 'B' ? '_' : 'B'}${value.slice(at + 2)}`;
}

describe('a spec in a link', () => {
  it('round-trips, compressed to well under half of its text', async () => {
    const unicode = `${naive}\n# a comment with “quotes” and é\n`;
    for (const text of [naive, unicode, '']) {
      const value = await fits(text);
      expect(value).toMatch(/^1\.[A-Za-z0-9_-]*$/);
      expect(await decodeSpecLink(value)).toEqual({ text, problem: null });
    }
    expect((await fits(naive)).length).toBeLessThan(naive.length / 1.5);
    const fragment = withSpecLink('scenario=race&step=0', await encodeSpecLink(naive));
    expect(specLinkValue(`#${fragment}`)).toBe(await fits(naive));
    expect(specLinkValue('scenario=race')).toBeNull();
    expect(specOrderOf('scenario=race&specorder=s1a%20s2a&spec=1.x')).toBe('s1a s2a');
    expect(specOrderOf('scenario=race&specorder=%E0%A4&spec=1.x')).toBeNull();
  });

  it('refuses a spec too long for a link in one line that names the command line, and leaves it out of the link', async () => {
    // Text that does not compress: a spec of random-looking identifiers.
    let seed = 7;
    const noise = Array.from({ length: 12_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return 'abcdefghijklmnopqrstuvwxyz0123456789'[(seed >> 16) % 36];
    }).join('');
    const link = await encodeSpecLink(`setup { CREATE TABLE t${noise} (); }\nsession s1\nstep s1a { SELECT 1; }\n`);
    expect(link.kind).toBe('too-long');
    if (link.kind !== 'too-long') return;
    expect(link.message).not.toContain('\n');
    expect(link.message).toContain(`${MAX_SPEC_LINK_CHARS.toLocaleString('en')} a link can carry`);
    expect(link.message).toContain('npm run sim -- spec FILE.spec');
    expect(withSpecLink('scenario=race', link)).toBe('scenario=race');
    expect((await decodeSpecLink(`1.${'A'.repeat(MAX_SPEC_LINK_CHARS)}`)).problem).toContain('more than a link carries');
  });

  it('names a damaged spec in one sentence: bad compression, not text, not its form', async () => {
    const value = await fits(naive);
    const problems = await Promise.all(
      [damaged(value), '1.AAAA', `1.${value.slice(2)}!`, 'x.abc', '9.abc', value.slice(0, value.length - 9)].map(
        async (v) => (await decodeSpecLink(v)).problem,
      ),
    );
    for (const problem of problems) {
      expect(problem).toMatch(/^The spec in the link could not be opened: [^\n]+\.$/);
    }
    expect(problems[0]).toMatch(/damaged|not text/);
    expect(problems[2]).toContain('base64url');
  });
});

describe('the lab opens a link with a spec', () => {
  const open = async (fragment: string, storage = new MemoryStorage()) => {
    const store = createLabStore({ lab: new InProcessLabClient(labDatabase), storage });
    await store.getState().start(fragment);
    // The spec's link is encoded asynchronously after it opens.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const notices = store.getState().notices.map((notice) => [notice.title, ...notice.details]);
    return { store, notices, storage };
  };
  const view = { scenarioId: 'lock-wait', settings: { strategy: 'naive' as const, fencing: true }, schedule: ['A', 'B'], position: 1 };

  it('shows the spec in an opened Your SQL, unrun and unstored, and the address carries it again', async () => {
    const fragment = withSpecLink(encodeView(view), await encodeSpecLink(naive), 'a_poll b_poll a_claim b_claim');
    expect(fragment).toContain('&specorder=a_poll%20b_poll%20a_claim%20b_claim&spec=1.');
    const { store, notices, storage } = await open(fragment);
    const state = store.getState();
    expect(state.specRunner).toMatchObject({ text: naive, running: false, result: null, shownOrder: 'a_poll b_poll a_claim b_claim' });
    expect(state.yourSql.open).toBe(true);
    expect(state.scenarioId).toBe('lock-wait');
    expect(state.position).toBe(1);
    expect(notices).toEqual([]);
    expect(storage.getItem(SPEC_DRAFT_KEY)).toBeNull();
    expect(linkFragment(state)).toBe(fragment);
    // Editing stores the draft; a fresh lab on the same storage starts from it.
    state.editSpec(`${naive}\n# mine\n`);
    const again = createLabStore({ lab: new InProcessLabClient(labDatabase), storage });
    expect(again.getState().specRunner.text).toBe(`${naive}\n# mine\n`);
  });

  it("carries the lanes' step beside the order; a step that is no number opens the order at its start, with one line in the link's notice", async () => {
    expect(specStepOf('scenario=race&specstep=12&spec=1.x')).toEqual({ step: 12, problem: null });
    expect(specStepOf('scenario=race&spec=1.x')).toEqual({ step: 0, problem: null });
    const link = await encodeSpecLink(naive);
    const fragment = withSpecLink(encodeView(view), link, 'a_poll b_poll a_claim b_claim', 3);
    expect(fragment).toContain('&specorder=a_poll%20b_poll%20a_claim%20b_claim&specstep=3&spec=1.');
    const opened = await open(fragment);
    expect(opened.store.getState().specRunner).toMatchObject({ shownOrder: 'a_poll b_poll a_claim b_claim', shownStep: 3 });
    expect(opened.notices).toEqual([]);
    await expect.poll(() => linkFragment(opened.store.getState())).toBe(fragment);
    const bad = await open(fragment.replace('specstep=3', 'specstep=-1'));
    expect(bad.store.getState().specRunner.shownStep).toBe(0);
    expect(bad.notices).toEqual([
      [
        'This link could not be opened exactly as written.',
        "specstep=-1 is not a step of the spec's order (0 for its start, 1 after its first step, …): the order opens at its start.",
      ],
    ]);
  });

  it('opens the rest of a link whose spec is damaged, with one message, and keeps the saved spec draft', async () => {
    const storage = new MemoryStorage();
    storage.setItem(SPEC_DRAFT_KEY, JSON.stringify({ version: 1, text: 'my draft' }));
    const fragment = `${encodeView(view)}&spec=${damaged(await fits(naive))}`;
    const { store, notices } = await open(fragment, storage);
    const state = store.getState();
    expect(state.scenarioId).toBe('lock-wait');
    expect(state.schedule).toEqual(['A', 'B']);
    expect(state.position).toBe(1);
    expect(state.specRunner.text).toBe('my draft');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toHaveLength(2);
    expect(notices[0]![1]).toMatch(/^The spec in the link could not be opened: /);
    expect(storage.getItem(SPEC_DRAFT_KEY)).toContain('my draft');
  });

  it('shows a spec draft saved by a newer lab and never writes over it', () => {
    const storage = new MemoryStorage();
    const newer = JSON.stringify({ version: 2, text: 'a newer draft', more: true });
    storage.setItem(SPEC_DRAFT_KEY, newer);
    const store = createLabStore({ lab: new InProcessLabClient(labDatabase), storage });
    expect(store.getState().specRunner.text).toBe('a newer draft');
    store.getState().editSpec('an edit here');
    expect(store.getState().specRunner.text).toBe('an edit here');
    expect(storage.getItem(SPEC_DRAFT_KEY)).toBe(newer);
  });
});
