/** The Timeline component renders from a trace without a DOM (as on first paint): what the app mounts. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../src/sim/types';
import { Timeline } from '../../src/timeline/Timeline';
import { runScenario } from '../support/lab';

let race: Trace;
beforeAll(async () => {
  race = await runScenario('race', 'script', { strategy: 'naive', fencing: false }, { finish: { kind: 'round-robin' } });
});

function render(position: number, selected: number | null = null, width = 1000): string {
  return renderToStaticMarkup(createElement(Timeline, { trace: race, position, selected, onSelect: () => {}, width }));
}

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

describe('Timeline', () => {
  it('is an svg image whose accessible name says it is the timeline and what is selected', () => {
    const html = render(race.steps.length, 4);
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toMatch(/aria-label="Timeline of race \(Naive SELECT then UPDATE, fencing off\): 10 of 10 steps shown; selected #5 [^"]*worker A · work/);
    expect(html).toMatch(/<svg[^>]*tabindex="0"/);
  });

  it('draws one mark per revealed step and nothing of the steps after', () => {
    for (const position of [0, 3, race.steps.length]) {
      const html = render(position);
      expect(count(html, /<path class="tl-mark tl-v-[a-z]+" data-step="\d+"/g)).toBe(position);
    }
    expect(render(2)).not.toContain('>UPDATE<');
    expect(render(3)).toContain('>UPDATE<');
  });

  it('rings the selected step and highlights its column', () => {
    expect(count(render(6, 3), /class="tl-ring-selected"/g)).toBe(1);
    expect(count(render(6, 3), /class="tl-select"/g)).toBe(1);
    // A selection that is not revealed yet is not drawn.
    expect(count(render(2, 5), /class="tl-ring-selected"/g)).toBe(0);
  });

  it('has zoom controls and a legend', () => {
    const html = render(race.steps.length);
    expect(html).toContain('Reset zoom');
    expect(html).toContain('aria-label="Zoom in"');
    expect(html).toContain('stale lease, still believed');
  });
});
