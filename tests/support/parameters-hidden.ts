/**
 * Statements that use $1 alone, each with a $n PostgreSQL's lexer reads as no parameter: the cases of
 * sql/parameters-written.ts (tests/unit/parameters-written.test.ts), held to PostgreSQL's parser in
 * tests/unit/your-sql-params.test.ts, which loads it anyway.
 */
export const PARAMETERS_HIDDEN = [
  ['a string constant', "SELECT 'costs $3', $1"],
  ['a string constant with a doubled quote', "SELECT 'it''s $3', $1"],
  ['an escape string, \\ escaping its quote', "SELECT E'it\\'s $3', $1"],
  ['a line comment', 'SELECT $1 -- $3 later\n'],
  ['a nested block comment', 'SELECT /* a /* $3 */ $4 */ $1'],
  ['a quoted identifier', 'SELECT "col $3", "a""$4" FROM t WHERE x = $1'],
  ['dollar-quoted text', 'SELECT $$ $3 $$, $tag$ $4 $x$ $tag$, $1'],
  ['an identifier holding $', 'SELECT a$3, b$$4 FROM t WHERE x = $1'],
] as const;
