import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyPanel } from '../../src/ui/lazyPanel';

describe('lazyPanel', () => {
  it('loads the code once, whoever asks first', async () => {
    let loads = 0;
    const Hello = () => createElement('p', null, 'hello');
    const panel = lazyPanel('Hello', async () => {
      loads += 1;
      return Hello;
    });
    const [first, second] = (await Promise.all([panel.fetch(), panel.fetch()])) as { default: ComponentType }[];
    expect(loads).toBe(1);
    expect(first!.default).toBe(Hello);
    expect(second).toBe(first);
  });

  it('shows a notice in its place when the code cannot be fetched, instead of failing the page', async () => {
    const panel = lazyPanel('The explorer', () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const loaded = (await panel.fetch()) as { default: ComponentType };
    const html = renderToStaticMarkup(createElement(loaded.default));
    expect(html).toContain('The explorer could not be loaded (Failed to fetch dynamically imported module)');
    expect(html).toMatch(/^<output/);
  });
});
