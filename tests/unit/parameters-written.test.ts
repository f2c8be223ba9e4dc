/**
 * The $n a statement's text uses by PostgreSQL's lexical rules (sql/parameters-written.ts): what the
 * "Your SQL" page reads, as the learner types, to decide whether a statement needs a Parameters row.
 */
import { describe, expect, it } from 'vitest';
import { parametersWritten } from '../../src/sql/parameters-written';
import { PARAMETERS_HIDDEN } from '../support/parameters-hidden';

describe('parametersWritten', () => {
  it('finds each $n written as a parameter', () => {
    expect(parametersWritten('SELECT $1, $2::int FROM t WHERE x=$3 LIMIT $10')).toEqual([1, 2, 3, 10]);
    expect(parametersWritten('UPDATE t SET a = $2 WHERE id = $1 AND b = $2')).toEqual([2, 1, 2]);
  });

  it.each(PARAMETERS_HIDDEN)('skips a $n inside %s', (_, text) => {
    expect(parametersWritten(text)).toEqual([1]);
  });

  it('text left open hides the rest, as it does from the server', () => {
    expect(parametersWritten("SELECT $1, 'open $2")).toEqual([1]);
    expect(parametersWritten('SELECT $1 /* open $2')).toEqual([1]);
    expect(parametersWritten('SELECT $1, $q$ open $2')).toEqual([1]);
  });
});
