/**
 * Setting a spec's tables back between permutations on PGlite by TRUNCATE and the setup's row statements
 * (src/sql/analyze/spec-reset.ts) instead of its teardown and setup: which specs may, why the others may not
 * (each kind of object the row reset would not give back fresh), and that it leaves what the teardown and
 * setup leave: the same answers, the same rows at the same places (ctid), the same pg_class figures for the
 * table and the same sizes (an index's own relpages and reltuples differ, which the planner reads only for a
 * partial index: spec-reset.ts).
 */
import { describe, expect, it } from 'vitest';
import { PGliteSpecDriver } from '../../src/db/pglite-spec';
import { parseSpec, permutationsOf, type Spec } from '../../src/spec/parse';
import { runPermutations } from '../../src/spec/run';
import { rowReset } from '../../src/sql/analyze/spec-reset';

const TABLE = 'CREATE TABLE foo (id int PRIMARY KEY, data text NOT NULL)';
const ROWS = "INSERT INTO foo VALUES (1, 'x'), (2, 'y')";
const STEP = "UPDATE foo SET data = 'a' WHERE id = 1";

async function plan(setup: string, { teardown = 'DROP TABLE foo', steps = [STEP] }: { teardown?: string | null; steps?: string[] } = {}) {
  return rowReset([setup], teardown, steps);
}

describe('which specs set their tables back by their rows', () => {
  it('plain tables, their indexes and row statements: TRUNCATE, then the row statements of each block', async () => {
    const two = await rowReset(
      [`DROP TABLE IF EXISTS foo; ${TABLE}; CREATE INDEX ON foo (data); ${ROWS}; CREATE TABLE bar (id int)`, "UPDATE foo SET data = 'z' WHERE id = 2"],
      'DROP TABLE bar; DROP TABLE foo;',
      [STEP, 'SELECT ctid, * FROM foo JOIN bar USING (id)', 'WITH t AS (SELECT 1) SELECT * FROM t'],
    );
    expect(two).toEqual({ truncate: 'TRUNCATE "foo", "bar";', rows: [`${ROWS};`, "UPDATE foo SET data = 'z' WHERE id = 2;"] });
  });

  it.each([
    ['a sequence', `${TABLE}; CREATE SEQUENCE s`, {}, /runs CreateSeq/],
    ['a serial column', 'CREATE TABLE foo (id serial PRIMARY KEY)', {}, /serial column draws from a sequence/],
    ['an identity column', 'CREATE TABLE foo (id int GENERATED ALWAYS AS IDENTITY)', {}, /identity column draws from a sequence/],
    ['a default from a sequence', "CREATE TABLE foo (id int DEFAULT nextval('s'))", {}, /default draws from a sequence/],
    ['a function', `${TABLE}; CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'`, {}, /runs CreateFunction/],
    ['a view', `${TABLE}; CREATE VIEW v AS SELECT * FROM foo`, {}, /runs View/],
    ['a trigger', `${TABLE}; CREATE TRIGGER t BEFORE UPDATE ON foo FOR EACH ROW EXECUTE FUNCTION f()`, {}, /runs CreateTrig/],
    ['a type', `CREATE TYPE mood AS ENUM ('a'); ${TABLE}`, {}, /runs CreateEnum/],
    ['a partitioned table', 'CREATE TABLE foo (id int) PARTITION BY RANGE (id)', {}, /partition/],
    ['a temporary table', 'CREATE TEMP TABLE foo (id int)', {}, /temporary or unlogged/],
    ['an index built after the rows', `${TABLE}; ${ROWS}; CREATE INDEX ON foo (data)`, {}, /after filling it/],
    ['a setup that answers rows', `${TABLE}; SELECT 1`, {}, /runs Select/],
    ['a setup that returns rows', `${TABLE}; ${ROWS} RETURNING id`, {}, /returns rows/],
    ['a prepared transaction', `${TABLE}; BEGIN; ${ROWS}; PREPARE TRANSACTION 'x'`, {}, /runs Transaction/],
    ['a setting', `${TABLE}; SET lock_timeout = '1s'`, {}, /runs VariableSet/],
    ['no teardown', TABLE, { teardown: null }, /no teardown/],
    ['a teardown that leaves a table', `${TABLE}; CREATE TABLE bar (id int)`, {}, /does not drop exactly/],
    ['a step that reads a catalog', TABLE, { steps: ['SELECT relpages FROM pg_class'] }, /reaches public\.pg_class/],
    ['a step that reads xmin', TABLE, { steps: ['SELECT xmin FROM foo'] }, /system column xmin/],
    ['a step that shows an oid', TABLE, { steps: ["SELECT 'foo'::regclass::oid"] }, /casts to/],
    ['a step that calls a pg_ function', TABLE, { steps: ["SELECT pg_relation_size('foo')"] }, /calls pg_relation_size\(\)/],
    ['a step that draws from a sequence', TABLE, { steps: ["SELECT nextval('s')"] }, /calls nextval\(\)/],
    ['a step the parser rejects', TABLE, { steps: ['SELEC 1'] }, /does not parse/],
    ['a step that writes another table', TABLE, { steps: ["UPDATE pg_class SET relname = 'x' WHERE false"] }, /reaches public\.pg_class/],
    ['a check that changes the schema', TABLE, { steps: ['ALTER TABLE foo ADD COLUMN x int'] }, /runs AlterTable/],
    ['a partial index', `${TABLE}; CREATE INDEX ON foo (data) WHERE id > 1`, {}, /partial index/],
    ['a partial exclusion constraint', 'CREATE TABLE foo (id int, EXCLUDE USING btree (id WITH =) WHERE (id > 0))', {}, /partial exclusion/],
  ])('%s: the teardown and setup run as written', async (_what, setup, options, why) => {
    const answer = await plan(setup, options);
    expect(typeof answer).toBe('string');
    expect(answer).toMatch(why);
  });
});

/**
 * Rows updated, deleted and inserted in the setup and in the steps (so pages hold dead rows and new
 * versions), an index built on the empty table, two setup blocks, unordered reads that show each row's place.
 */
const SPEC = `
setup { CREATE TABLE foo (id int PRIMARY KEY, data text NOT NULL); CREATE INDEX foo_data ON foo (data);
        INSERT INTO foo SELECT g, 'row' || g FROM generate_series(1, 5) AS g; UPDATE foo SET data = data || '!' WHERE id = 2; DELETE FROM foo WHERE id = 4; }
setup { INSERT INTO foo VALUES (6, 'six'); }
teardown { DROP TABLE foo; }
session a
step a1 { UPDATE foo SET data = 'a' WHERE id = 1; }
step a2 { SELECT ctid, id, data FROM foo; }
session b
step b1 { DELETE FROM foo WHERE id = 3; }
step b2 { INSERT INTO foo VALUES (7, 'b'); }
step b3 { SELECT ctid, id, data FROM foo WHERE data > 'a'; }
permutation a1 a2 b1 b2 b3
permutation b1 b2 a1 b3 a2
permutation a1 b1 b2 a2 b3
`;
/** The same spec with a check that reads a catalog: its tables are set back by its teardown and setup. */
const FULL = `${SPEC}check "never" { SELECT 1 FROM pg_class WHERE false }\n`;

/** Every permutation's output, then the table's rows with their places and its pg_class figures after one more setup. */
async function runAll(spec: Spec) {
  const driver = await PGliteSpecDriver.open(spec);
  try {
    const runs = await runPermutations(spec, permutationsOf(spec), driver, { pollMs: 0 });
    for (const setup of spec.setups) await driver.control(setup.sql, 'setup');
    const state = await driver.control(
      `SELECT ctid, * FROM foo;
       SELECT relname, pg_relation_size(oid), CASE relkind WHEN 'r' THEN ARRAY[relpages, reltuples, relallvisible] END AS figures
       FROM pg_class WHERE relname IN ('foo', 'foo_pkey', 'foo_data') ORDER BY relname;`,
      'check',
    );
    return { outputs: runs.map((run) => run.output), state: state.replies, rowsReset: driver.resetsByRows };
  } finally {
    await driver.close();
  }
}

describe('the row reset leaves what the teardown and setup leave', () => {
  it('every permutation prints the same, and the rows, their places and the pg_class figures are the same', async () => {
    const [rows, full] = [await runAll(parseSpec(SPEC)), await runAll(parseSpec(FULL))];
    expect([rows.rowsReset, full.rowsReset]).toEqual([true, false]);
    expect(rows.outputs).toHaveLength(3);
    expect(rows.outputs).toEqual(full.outputs);
    expect(rows.state).toEqual(full.state);
    // The places show the setup's dead rows: a fresh table filled afresh would put the rows elsewhere.
    expect(JSON.stringify(rows.state)).toContain('"(0,6)","2","row2!"');
  }, 60_000);
});
