/** The console's check and lexer: what may reach Postgres, decided from the text alone. */
import { describe, expect, it } from 'vitest';
import { checkConsoleSql, lexSql } from '../../src/sql/console';

const ok = (sql: string) => {
  const check = checkConsoleSql(sql);
  if (check.kind !== 'ok') throw new Error(`refused: ${check.reason}`);
  return check;
};
const refused = (sql: string) => {
  const check = checkConsoleSql(sql);
  if (check.kind !== 'refused') throw new Error(`allowed: ${sql}`);
  return check.reason;
};

describe('the console check', () => {
  it('lets queries through, plain ones as cursors', () => {
    expect(ok('SELECT * FROM runs')).toMatchObject({ command: 'SELECT', cursor: true, sql: 'SELECT * FROM runs' });
    expect(ok('  table runs;  -- the whole table\n')).toMatchObject({ command: 'TABLE', cursor: true, sql: '  table runs' });
    expect(ok('(SELECT 1) UNION (SELECT 2);')).toMatchObject({ command: 'SELECT', cursor: true });
    expect(ok('VALUES (1), (2)')).toMatchObject({ cursor: true });
    expect(ok('WITH RECURSIVE t AS (SELECT 1 UNION ALL SELECT 1 FROM t) SELECT count(*) FROM t')).toMatchObject({ command: 'WITH', cursor: true });
    expect(ok('EXPLAIN ANALYZE SELECT * FROM runs')).toMatchObject({ command: 'EXPLAIN', cursor: false });
    expect(ok('SHOW search_path')).toMatchObject({ cursor: false });
    expect(ok('-- comment first\n/* and a /* nested */ one */ SELECT 1')).toMatchObject({ command: 'SELECT' });
  });

  it('ends a -- comment at a carriage return too, as Postgres does, so a statement after it is seen', () => {
    expect(refused('SELECT 1 AS one --x\r; COMMIT; UPDATE runs SET status = \'done\'; --\n')).toBeTruthy();
    expect(lexSql('SELECT 1 --x\rFROM t').filter((t) => t.kind === 'comment').map((t) => t.text)).toEqual(['--x']);
  });

  it('sends writes and row locks as they are, for Postgres to refuse them in the read-only transaction', () => {
    expect(ok("UPDATE runs SET status = 'done'")).toMatchObject({ command: 'UPDATE', cursor: false });
    expect(ok('DELETE FROM runs')).toMatchObject({ cursor: false });
    expect(ok('SELECT * FROM runs FOR UPDATE SKIP LOCKED')).toMatchObject({ command: 'SELECT', cursor: false });
    expect(ok('SELECT * FROM runs FOR KEY SHARE')).toMatchObject({ cursor: false });
    expect(ok('WITH c AS (SELECT run_id FROM runs LIMIT 1) UPDATE runs SET progress = 1 WHERE run_id IN (SELECT run_id FROM c)')).toMatchObject({ command: 'WITH', cursor: false });
    expect(ok('WITH u AS (DELETE FROM runs RETURNING *) SELECT * FROM u')).toMatchObject({ cursor: false });
    expect(ok('SELECT * INTO copy FROM runs')).toMatchObject({ cursor: false });
  });

  it('refuses transaction control before anything is sent', () => {
    for (const sql of ['BEGIN', 'begin;', 'START TRANSACTION', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT a', 'RELEASE a']) {
      expect(refused(sql), sql).toMatch(/BEGIN READ ONLY … ROLLBACK/);
    }
    for (const sql of ["COMMIT PREPARED 'lease_lab_A'", "ROLLBACK PREPARED 'lease_lab_A'", "PREPARE TRANSACTION 'x'"]) {
      expect(refused(sql), sql).toMatch(/parked workers/);
    }
  });

  it('refuses what passes the read-only check but could wait for a lock, outlive the statement or change the session', () => {
    expect(refused('LOCK TABLE runs IN ACCESS EXCLUSIVE MODE')).toMatch(/never returns/);
    expect(refused('CLUSTER runs')).toMatch(/never returns/);
    expect(refused('REINDEX TABLE runs')).toMatch(/never returns/);
    expect(refused('DO $$ BEGIN LOCK TABLE runs; END $$')).toMatch(/Code blocks/);
    expect(refused('SET search_path = public')).toMatch(/Settings/);
    expect(refused('LISTEN x')).toMatch(/PREPARE TRANSACTION/);
    expect(refused('DECLARE c CURSOR FOR SELECT 1')).toMatch(/Cursors/);
    expect(refused('PREPARE q AS SELECT 1')).toMatch(/prepared statements/);
    expect(refused('COPY runs TO STDOUT')).toMatch(/COPY/);
    expect(refused('VACUUM runs')).toMatch(/Maintenance/);
    expect(refused('TRUNCATE runs')).toMatch(/read-only: TRUNCATE/);
    expect(refused('DROP TABLE runs')).toMatch(/read-only: DROP/);
    expect(refused('frobnicate')).toMatch(/does not run FROBNICATE/);
    expect(refused('"select" 1')).toMatch(/does not start like a statement/);
  });

  it('runs one statement at a time, wherever the semicolons hide', () => {
    expect(refused('SELECT 1; SELECT 2')).toMatch(/One statement at a time/);
    expect(refused('SELECT 1; BEGIN')).toMatch(/One statement at a time/);
    expect(refused('   ;  ')).toMatch(/nothing to run/);
    expect(refused('-- only a comment')).toMatch(/nothing to run/);
    // Semicolons inside strings, quoted names, dollar quotes and comments are not statement ends.
    expect(ok("SELECT 'a;b', \"x;y\", $$c;d$$, $t$e;$$;f$t$, E'g\\';h' -- i;j\n/* k; */")).toMatchObject({ command: 'SELECT' });
    expect(ok("SELECT 'it''s; fine'")).toMatchObject({ command: 'SELECT' });
    expect(ok(';; SELECT 1 ;;')).toMatchObject({ command: 'SELECT', sql: '   SELECT 1 ' });
  });
});

describe('the lexer', () => {
  it('covers the text exactly and tells strings, comments, parameters and keywords apart', () => {
    const text = "SELECT run_id, 'x' AS s, $1, $q$ a $q$ FROM runs -- note\nWHERE a=-1 /* c */;";
    const tokens = lexSql(text);
    expect(tokens.map((t) => t.text).join('')).toBe(text);
    const kinds = (kind: string) => tokens.filter((t) => t.kind === kind).map((t) => t.text);
    expect(kinds('keyword')).toEqual(['SELECT', 'AS', 'FROM', 'WHERE']);
    expect(kinds('string')).toEqual(["'x'", '$q$ a $q$']);
    expect(kinds('parameter')).toEqual(['$1']);
    expect(kinds('comment')).toEqual(['-- note', '/* c */']);
    expect(kinds('number')).toEqual(['1']);
    expect(kinds('semicolon')).toEqual([';']);
  });

  it('runs an unterminated string or comment to the end', () => {
    expect(lexSql("SELECT 'abc").at(-1)).toMatchObject({ kind: 'string', text: "'abc" });
    expect(lexSql('SELECT /* abc').at(-1)).toMatchObject({ kind: 'comment', text: '/* abc' });
    expect(checkConsoleSql("SELECT 'a; BEGIN")).toMatchObject({ kind: 'ok' });
  });
});
