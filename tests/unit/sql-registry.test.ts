import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SQL_IDS } from '../../src/sql/registry';

describe('the SQL registry', () => {
  it('registers every .sql file under its file name', () => {
    const onDisk = readdirSync(join(__dirname, '../../src/sql'))
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    expect([...SQL_IDS].sort()).toEqual(onDisk);
  });
});
