/**
 * What the spec driver sends PGlite for a session's transaction: the text the tester prints is checked
 * elsewhere (spec-pglite.test.ts against PostgreSQL's own expected output); here, that a transaction no other
 * session's step interrupts is run as it is, without parking it (PREPARE TRANSACTION, COMMIT PREPARED), and
 * that a replayed BEGIN travels with the statement after it: calls into Postgres a permutation spares.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { PGliteSpecDriver } from '../../src/db/pglite-spec';
import { parseSpec, permutationsOf } from '../../src/spec/parse';
import { runPermutations } from '../../src/spec/run';

/** The bench's spec, with three of its permutations: run alone, interrupted once, interleaved. */
const SPEC = `${readFileSync(join(__dirname, '../fixtures/specs/two-claims-skip-locked.spec'), 'utf8')}
permutation a_begin a_claim a_commit b_begin b_claim b_commit
permutation a_begin a_claim b_begin a_commit b_claim b_commit
permutation a_begin a_claim b_begin b_claim a_commit b_commit
`;

const claimed = (step: string, id: number) =>
  `step ${step}: UPDATE jobs SET status = 'running', owner = '${step[0]}' WHERE id = (SELECT id FROM jobs WHERE status = 'pending' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id;\nid\n--\n ${id}\n(1 row)\n\n`;

describe('the spec driver on PGlite: calls into Postgres', () => {
  it('a transaction no other session interrupts is committed as it is; one that is interrupted is parked; the text is the same either way', async () => {
    const spec = parseSpec(SPEC);
    const driver = await PGliteSpecDriver.open(spec);
    const pg = (driver as unknown as { pg: PGlite }).pg;
    // Each permutation's calls, in order, as the text of the messages sent.
    const calls: string[][] = [[]];
    const send = pg.execProtocolRawStream.bind(pg);
    pg.execProtocolRawStream = (message, options) => {
      calls.at(-1)!.push(new TextDecoder().decode(message.map((byte) => (byte < 0x20 ? 0x20 : byte))).replace(/ +/g, ' '));
      return send(message, options);
    };
    try {
      const runs = await runPermutations(spec, permutationsOf(spec), driver, { onPermutation: () => calls.push([]) });
      expect(runs.map((run) => [run.refused, run.invalid])).toEqual([
        [null, null],
        [null, null],
        [null, null],
      ]);
      expect(runs[0]!.output).toBe(
        `\nstarting permutation: a_begin a_claim a_commit b_begin b_claim b_commit\nstep a_begin: BEGIN;\n${claimed('a_claim', 1)}step a_commit: COMMIT;\nstep b_begin: BEGIN;\n${claimed('b_claim', 2)}step b_commit: COMMIT;\n`,
      );
      expect(runs[2]!.output).toBe(
        `\nstarting permutation: a_begin a_claim b_begin b_claim a_commit b_commit\nstep a_begin: BEGIN;\n${claimed('a_claim', 1)}step b_begin: BEGIN;\n${claimed('b_claim', 2)}step a_commit: COMMIT;\nstep b_commit: COMMIT;\n`,
      );
      const parks = (i: number) => calls[i]!.filter((call) => /PREPARE TRANSACTION|COMMIT PREPARED/.test(call));
      // Each claim's transaction ends before the other session's runs (b's BEGIN sends nothing): no parking,
      // and each BEGIN goes with its claim. The tables are set back in one call: five calls in all.
      for (const i of [0, 1]) expect(parks(i)).toEqual([]);
      expect(calls[1]!.map((call) => (/BEGIN .*UPDATE jobs/.test(call) ? 'begin+claim' : call.trim()))).toEqual([
        'Q <TRUNCATE "jobs"; INSERT INTO jobs (id) VALUES (1), (2);',
        'begin+claim',
        'Q COMMIT',
        'begin+claim',
        'Q COMMIT',
      ]);
      // a's transaction is interrupted by b's claim: parked, and committed as it was parked.
      expect(parks(2).map((call) => call.replace(/^Q \S?/, '').trim())).toEqual([
        "PREPARE TRANSACTION 'lease_lab_spec_0'",
        "PREPARE TRANSACTION 'lease_lab_spec_1'",
        "COMMIT PREPARED 'lease_lab_spec_0'",
        "COMMIT PREPARED 'lease_lab_spec_1'",
      ]);
    } finally {
      await driver.close();
    }
  }, 60_000);
});
