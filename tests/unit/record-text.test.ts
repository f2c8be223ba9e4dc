import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordText } from '../../src/db/record-text';
import { BRIDGE_SQL_IDS, bridgeSql, sizedDeclare } from '../../src/sql/bridge';

describe('parseRecordText', () => {
  it('reads back what record_out writes: quotes, doubled quotes, backslashes, NULL and empty text', () => {
    // As PostgreSQL 15 prints ROW(1, 'a"b\c', NULL, '', 'x y', '(1,2)')::text.
    expect(parseRecordText('(1,"a""b\\\\c",,"","x y","(1,2)")', 6)).toEqual(['1', 'a"b\\c', null, '', 'x y', '(1,2)']);
    expect(parseRecordText('(,)', 2)).toEqual([null, null]);
  });

  it('tells a record of one NULL from a record of no columns by the column count', () => {
    expect(parseRecordText('()', 1)).toEqual([null]);
    expect(parseRecordText('()', 0)).toEqual([]);
  });

  it('refuses text that is not a record', () => {
    expect(() => parseRecordText('1,2', 2)).toThrow("not a record's text");
    expect(() => parseRecordText('("open)', 1)).toThrow('unterminated quote');
  });
});

describe("the bridge's statements", () => {
  it('lists every .sql file of src/sql/bridge under its name', () => {
    const onDisk = readdirSync(join(__dirname, '../../src/sql/bridge'))
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    expect([...BRIDGE_SQL_IDS].sort()).toEqual(onDisk);
  });

  it("puts the learner's query on lines of its own inside the measured cursor, and says where it starts", () => {
    const { text, prefixLength } = sizedDeclare('SELECT 1 -- a comment');
    expect(text.slice(prefixLength)).toMatch(/^SELECT 1 -- a comment\n\s*\) AS lease_lab_query/);
    expect(text).not.toMatch(/^LEARNER_QUERY$/m);
    expect(bridgeSql('console-shape-fetch')).toMatch(/\nFETCH FORWARD 0 FROM lease_lab_console_shape$/);
  });
});
