/** The queue comparison's data: every row and cell points at a real place in the lab, and the README's table is this data. */
import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { COMPARISON_QUESTIONS, QUEUE_COMPARISON } from '../../src/lessons/queue-comparison';
import { COMPARISON_END, COMPARISON_START, comparisonMarkdown, withComparison } from '../../src/lessons/queue-comparison-markdown';
import { findScenario, INCIDENT_SCENARIOS } from '../../src/scenarios';
import { decodeView } from '../../src/store/permalink';
import { isBackpressureFragment } from '../../src/store/backpressure-link';
import { PGLITE_HAS_ONE_SESSION } from '../../src/sim/isolation';
import { QUEUE_STRATEGY_IDS, STRATEGY_IDS, strategyDefinition } from '../../src/strategies';
import { QueueComparison } from '../../src/ui/comparison/QueueComparison';

const allLinks = QUEUE_COMPARISON.flatMap((row) =>
  row.cells.flatMap((cell) => [cell.link, ...cell.incidents.flatMap((incident) => [incident.open, ...(incident.fix ? [incident.fix] : [])])]),
);

describe('the queue comparison', () => {
  it('has a row for every production queue, then the atomic claim with fencing on', () => {
    expect(QUEUE_COMPARISON.map((row) => row.strategy)).toEqual([...QUEUE_STRATEGY_IDS, 'skip-locked']);
    const lab = QUEUE_COMPARISON.at(-1)!;
    expect(lab.fencing).toBe(true);
    expect(lab.source).toBeNull();
  });

  it('answers every question in every row, in the columns’ order, with some words', () => {
    for (const row of QUEUE_COMPARISON) {
      expect(row.cells.map((cell) => cell.question)).toEqual(COMPARISON_QUESTIONS.map((question) => question.id));
      for (const cell of row.cells) expect(cell.text.trim().length, `${row.strategy} × ${cell.question}`).toBeGreaterThan(10);
    }
  });

  it('links every cell to a scenario the lab has, under a strategy it has, or to the backpressure lab', () => {
    expect(allLinks.length).toBeGreaterThan(QUEUE_COMPARISON.length * COMPARISON_QUESTIONS.length);
    for (const link of allLinks) {
      if (link.target.kind === 'backpressure') continue;
      expect(findScenario(link.target.scenarioId), link.target.scenarioId).toBeDefined();
      expect(STRATEGY_IDS, link.target.strategy).toContain(link.target.strategy);
      expect(typeof link.target.fencing).toBe('boolean');
    }
  });

  it("opens each row's scenarios under that row's strategy", () => {
    for (const row of QUEUE_COMPARISON) {
      for (const cell of row.cells) {
        if (cell.link.target.kind === 'scenario') expect(cell.link.target).toMatchObject({ strategy: row.strategy, fencing: row.fencing });
      }
    }
  });

  it('takes the words a definition already has from the definition, not a copy', () => {
    const fromDefinitions = QUEUE_COMPARISON.flatMap((row) => row.cells.filter((cell) => cell.from === 'definition').map((cell) => ({ row, cell })));
    expect(fromDefinitions.length).toBe(QUEUE_STRATEGY_IDS.length * 2);
    for (const { row, cell } of fromDefinitions) {
      const facts = strategyDefinition(row.strategy).queue!;
      expect([facts.ownershipEnds, facts.completionGuard]).toContain(cell.text);
    }
  });

  it('places every incident in its queue’s row, opened under the queue’s own guard, with its fix', () => {
    expect(INCIDENT_SCENARIOS.length).toBeGreaterThan(0);
    for (const scenario of INCIDENT_SCENARIOS) {
      const incident = scenario.incident!;
      const row = QUEUE_COMPARISON.find((entry) => entry.strategy === incident.queue)!;
      const placed = row.cells.flatMap((cell) => cell.incidents).filter((entry) => entry.source === incident.source);
      expect(placed, scenario.id).toHaveLength(1);
      expect(placed[0]!.open.target).toEqual({ kind: 'scenario', scenarioId: scenario.id, strategy: incident.queue, fencing: false });
      // A fix that is a setting, not a guard (pg-boss #529's lease), opens the scenario with that setting.
      const fixedIn = incident.fix.scenarioId ?? scenario.id;
      expect(placed[0]!.fix.target).toEqual({ kind: 'scenario', scenarioId: fixedIn, strategy: incident.fix.strategy, fencing: incident.fix.fencing });
      expect(placed[0]!.fixInWords).toBe(incident.fix.inWords);
    }
    const elsewhere = QUEUE_COMPARISON.filter((row) => row.strategy === 'skip-locked').flatMap((row) => row.cells.flatMap((cell) => cell.incidents));
    expect(elsewhere).toEqual([]);
  });
});

describe('the isolation level each claim runs at', () => {
  const isolation = (row: (typeof QUEUE_COMPARISON)[number]) => row.cells.find((cell) => cell.question === 'isolation')!;
  const queues = QUEUE_COMPARISON.filter((row) => row.source !== null);

  it("is READ COMMITTED for every queue as the lab plays it: the server's default that their claims leave alone, or named (Hangfire.PostgreSql's)", () => {
    expect(queues).toHaveLength(QUEUE_STRATEGY_IDS.length);
    const NAMES_ITS_LEVEL = ['hangfire'];
    // DBOS Transact leaves the level alone for a queue with no global limit, and raises it for one with a limit.
    const RAISES_IT_WHEN_LIMITED = ['dbos'];
    for (const row of queues) {
      if (NAMES_ITS_LEVEL.includes(row.strategy)) expect(isolation(row).text, row.strategy).toMatch(/^READ COMMITTED, named: .*IsolationLevel\.ReadCommitted/);
      else if (RAISES_IT_WHEN_LIMITED.includes(row.strategy))
        expect(isolation(row).text, row.strategy).toMatch(
          /^READ COMMITTED, the connection's default, for a queue with no global limit: .*naming no level\. .*REPEATABLE READ/,
        );
      else expect(isolation(row).text, row.strategy).toMatch(/^READ COMMITTED, the server's default: .*(no level|no isolation: option|sets none)/);
    }
  });

  it("cites each queue's code that shows it as owner/repo@commit:path, at the commit its row holds for", () => {
    for (const row of queues) {
      const readIn = isolation(row).readIn;
      expect(readIn.length, row.strategy).toBeGreaterThan(0);
      for (const path of readIn) expect(`${row.source}:${path}`).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}:[\w./-]+\.\w+$/);
    }
    // The other cells cite through the definition's files, not their own.
    for (const row of QUEUE_COMPARISON) for (const cell of row.cells.filter((entry) => entry.question !== 'isolation')) expect(cell.readIn).toEqual([]);
  });

  it("says in the lab's row why the page runs READ COMMITTED and where the other levels run", () => {
    const lab = isolation(QUEUE_COMPARISON.at(-1)!);
    expect(lab.text).toMatch(/^READ COMMITTED in the page: /);
    expect(lab.text).toContain(PGLITE_HAS_ONE_SESSION);
    expect(lab.text).toContain('--db postgres://');
    expect(lab.text).toContain('40001');
    expect(lab.readIn).toEqual([]);
  });
});

describe('the Compare queues view', () => {
  const html = renderToStaticMarkup(createElement(QueueComparison));

  it('is a table with a caption, a column header per question and a row header per queue', () => {
    expect(html).toMatch(/<caption[^>]*>Production Postgres queues and this lab/);
    expect(html.match(/<th scope="col">/g)).toHaveLength(COMPARISON_QUESTIONS.length + 1);
    expect(html.match(/<th scope="row">/g)).toHaveLength(QUEUE_COMPARISON.length);
    expect(html).toContain('<th scope="col">At which isolation level does the claim run?</th>');
  });

  it('names the files each isolation cell was read in', () => {
    expect(html).toContain('<p class="ll-meaning">Read in src/sql/getJobs.ts, src/lib.ts, RELEASE_NOTES.md</p>');
    expect(html.match(/<p class="ll-meaning">Read in /g)).toHaveLength(QUEUE_STRATEGY_IDS.length);
  });

  it("links each cell to the lab's address for its target, which the lab reads back as that view", () => {
    const hrefs = [...html.matchAll(/href="(#[^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    expect(hrefs).toHaveLength(allLinks.length);
    for (const [index, link] of allLinks.entries()) {
      const href = hrefs[index]!;
      if (link.target.kind === 'backpressure') {
        expect(isBackpressureFragment(href), href).toBe(true);
        continue;
      }
      const decoded = decodeView(href);
      expect(decoded?.problems, href).toEqual([]);
      expect(decoded?.view).toEqual({
        scenarioId: link.target.scenarioId,
        settings: { strategy: link.target.strategy, fencing: link.target.fencing },
        schedule: [],
        position: 0,
      });
    }
  });
});

describe("the README's comparison table", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('is the data, as scripts/readme-comparison.ts writes it', () => {
    expect(readme).toContain(COMPARISON_START);
    expect(readme).toContain(COMPARISON_END);
    const between = readme.slice(readme.indexOf(COMPARISON_START) + COMPARISON_START.length, readme.indexOf(COMPARISON_END));
    expect(between.trim(), 'README.md differs: run node --import tsx --import ./scripts/raw-loader.mjs scripts/readme-comparison.ts --write').toBe(
      comparisonMarkdown(),
    );
    expect(withComparison(readme)).toBe(readme);
  });

  it("has the isolation column, with the files each queue's level was read in", () => {
    expect(readme).toContain('| At which isolation level does the claim run? |');
    expect(readme).toContain(
      "READ COMMITTED, the server's default: JobGetAvailable is one statement on the pool, outside any transaction, and names no level;",
    );
    expect(readme).toContain('Read in `producer.go`, `riverdriver/riverpgxv5/river_pgx_v5_driver.go`');
  });

  it('would differ from a README whose table was edited by hand', () => {
    const edited = readme.replace('| **River**', '| **River (edited)**');
    expect(edited).not.toBe(readme);
    expect(withComparison(edited)).not.toBe(edited);
  });
});
