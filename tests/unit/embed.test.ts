/** The embedded lab's parts that need no browser: its addresses, its snippet, and its storage that waits for the learner. */
import { describe, expect, it } from 'vitest';
import { FRAME_ANCESTORS } from '../../src/live/page-policy';
import { storageAfterFirstAct } from '../../src/store/gated-storage';
import { embedAddress, fullLabAddress, iframeSnippet, isEmbedAddress, withFragment } from '../../src/ui/embed/address';
import { MemoryStorage } from '../support/memory-storage';

describe('embed addresses', () => {
  const href = 'https://lab.example/sub/?live=no#scenario=race&schedule=A,B&step=2';
  it('adds and removes ?embed, keeping the rest of the address and the view', () => {
    expect(embedAddress(href)).toBe('https://lab.example/sub/?live=no&embed#scenario=race&schedule=A,B&step=2');
    expect(isEmbedAddress(new URL(embedAddress(href)).search)).toBe(true);
    expect(fullLabAddress(embedAddress(href))).toBe(href);
    expect(isEmbedAddress('?live=no')).toBe(false);
    expect(withFragment(embedAddress(href), 'scenario=race&step=5')).toBe('https://lab.example/sub/?live=no&embed#scenario=race&step=5');
  });

  it('the snippet frames the embedded view, its attributes escaped', () => {
    const snippet = iframeSnippet('https://lab.example/#scenario=race', '"Quoted" <b>title</b> & more');
    expect(snippet).toMatch(
      /^<iframe src="https:\/\/lab\.example\/\?embed#scenario=race" title="Lease Lab: &quot;Quoted&quot; &lt;b&gt;title&lt;\/b&gt; &amp; more"/,
    );
    expect(snippet).toContain('></iframe>');
  });

  it('the static build may be framed by any page, live mode by none', () => {
    expect(FRAME_ANCESTORS['any-origin']).toBe('frame-ancestors *');
    expect(FRAME_ANCESTORS.none).toBe("frame-ancestors 'none'");
  });
});

describe('the storage of an embedded lab', () => {
  function fakeWindow() {
    const listeners = new Map<string, Set<() => void>>();
    return {
      addEventListener: (kind: string, listener: () => void) => void (listeners.get(kind) ?? listeners.set(kind, new Set()).get(kind)!).add(listener),
      removeEventListener: (kind: string, listener: () => void) => void listeners.get(kind)?.delete(listener),
      fire: (kind: string) => {
        for (const listener of [...(listeners.get(kind) ?? [])]) listener();
      },
      count: () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0),
    };
  }
  it('reads, but keeps and removes nothing until the learner clicks or types in the frame', () => {
    const win = fakeWindow();
    const backing = new MemoryStorage({ kept: 'from before' });
    const storage = storageAfterFirstAct(backing, win as unknown as Window)!;
    expect(storage.getItem('kept')).toBe('from before');
    storage.setItem('place', 'x');
    storage.removeItem('kept');
    expect([...backing.data]).toEqual([['kept', 'from before']]);
    win.fire('keydown');
    expect(win.count()).toBe(0);
    storage.setItem('place', 'y');
    expect(backing.data.get('place')).toBe('y');
  });

  it('a pointer act counts too; no storage stays no storage', () => {
    const win = fakeWindow();
    const backing = new MemoryStorage({ kept: 'from before' });
    const storage = storageAfterFirstAct(backing, win as unknown as Window)!;
    win.fire('pointerdown');
    storage.setItem('place', 'z');
    expect(backing.data.get('place')).toBe('z');
    expect(storageAfterFirstAct(null, win as unknown as Window)).toBeNull();
  });
});
