/** The console's check and lexer: what may reach Postgres, decided from the text alone. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  CONSOLE_ROWS_FETCHED,
  CONSOLE_ROWS_SHOWN,
  checkConsoleSql,
  HIGHLIGHT_MAX_CHARS,
  highlightSql,
  lexSql,
  MAX_CONSOLE_SQL_CHARS,
} from '../../src/sql/console';
import { sqlText } from '../../src/sql/registry';
import { SqlEditor } from '../../src/ui/console/SqlEditor';

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
    expect(refused("SELECT 1 AS one --x\r; COMMIT; UPDATE runs SET status = 'done'; --\n")).toBeTruthy();
    expect(
      lexSql('SELECT 1 --x\rFROM t')
        .filter((t) => t.kind === 'comment')
        .map((t) => t.text),
    ).toEqual(['--x']);
  });

  it('sends writes and row locks as they are, for Postgres to refuse them in the read-only transaction', () => {
    expect(ok("UPDATE runs SET status = 'done'")).toMatchObject({ command: 'UPDATE', cursor: false });
    expect(ok('DELETE FROM runs')).toMatchObject({ cursor: false });
    expect(ok('SELECT * FROM runs FOR UPDATE SKIP LOCKED')).toMatchObject({ command: 'SELECT', cursor: false });
    expect(ok('SELECT * FROM runs FOR KEY SHARE')).toMatchObject({ cursor: false });
    expect(ok('WITH c AS (SELECT run_id FROM runs LIMIT 1) UPDATE runs SET progress = 1 WHERE run_id IN (SELECT run_id FROM c)')).toMatchObject({
      command: 'WITH',
      cursor: false,
    });
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

describe('long statements stay cheap to draw and are refused past the cap', () => {
  const render = (value: string) =>
    renderToStaticMarkup(createElement(SqlEditor, { value, onChange: () => {}, onRun: () => {}, onHistory: () => false, describedBy: 'd' }));
  const spans = (html: string) => html.split('<span').length - 1;
  const textOf = (html: string) => /<pre[^>]*>([\s\S]*)<\/pre>/.exec(html)![1]!.replace(/<[^>]+>/g, '');

  it('the editor colours at most a bounded number of tokens of a 40 KB statement and draws the rest plain', () => {
    const sql = `SELECT ${Array.from({ length: 8_000 }, (_, i) => `c${i}`).join(', ')} FROM runs`;
    expect(sql.length).toBeGreaterThan(40_000);
    const html = render(sql);
    expect(spans(html)).toBeGreaterThan(100);
    expect(spans(html)).toBeLessThanOrEqual(1_000);
    // Every character is still drawn (the textarea over it is transparent and must line up).
    expect(textOf(html)).toBe(`${sql}\n`);
    const { tokens, plain } = highlightSql(sql);
    expect(tokens.at(-1)!.end).toBeLessThanOrEqual(HIGHLIGHT_MAX_CHARS);
    expect(tokens.map((t) => t.text).join('') + plain).toBe(sql);
  });

  it('40,000 nested parentheses are tokens in one pass, not recursion, and the editor draws a bounded number', () => {
    const sql = `SELECT ${'('.repeat(40_000)}1${')'.repeat(40_000)}`;
    const tokens = lexSql(sql);
    expect(tokens.filter((t) => t.kind === 'punctuation')).toHaveLength(80_000);
    expect(tokens.map((t) => t.text).join('')).toBe(sql);
    const html = render(sql);
    expect(spans(html)).toBeLessThanOrEqual(1_000);
    expect(textOf(html)).toBe(`${sql}\n`);
  });

  it('a highlighted prefix that ends inside a token keeps the text whole', () => {
    const sql = `SELECT '${'x'.repeat(HIGHLIGHT_MAX_CHARS * 2)}'`;
    const { tokens, plain } = highlightSql(sql);
    expect(tokens.map((t) => t.text).join('') + plain).toBe(sql);
    expect(tokens.at(-1)!.kind).toBe('string');
  });

  it('the console refuses a statement over its length cap with a message that says so, and takes one under it', () => {
    const long = `SELECT ${'1+'.repeat(MAX_CONSOLE_SQL_CHARS / 2)}1`;
    expect(refused(long)).toMatch(/characters long; the console runs statements of up to 16,000 characters/);
    expect(ok(`SELECT ${'1+'.repeat(3_999)}1`)).toMatchObject({ command: 'SELECT' });
  });
});

describe('the row cap, in one home', () => {
  it('the live console fetches exactly as many rows as an answer carries, and the page shows no more than that', () => {
    expect(sqlText('live-console-fetch')).toMatch(new RegExp(`FETCH FORWARD ${CONSOLE_ROWS_FETCHED} FROM`));
    expect(CONSOLE_ROWS_SHOWN).toBeLessThanOrEqual(CONSOLE_ROWS_FETCHED);
  });
});
