import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBES, parameterCount, SQL_IDS, sqlText } from '../../src/sql/registry';

describe('the SQL registry', () => {
  it('registers every .sql file under its file name', () => {
    const onDisk = readdirSync(join(__dirname, '../../src/sql')).filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, '')).sort();
    expect([...SQL_IDS].sort()).toEqual(onDisk);
  });

  it('every probe takes a prefix of its statement\'s parameters and locks with NOWAIT', () => {
    for (const [statement, probe] of Object.entries(PROBES)) {
      expect(parameterCount(probe!), `${probe}`).toBeLessThanOrEqual(parameterCount(statement as never));
      expect(sqlText(probe!), `${probe}`).toMatch(/FOR UPDATE NOWAIT/);
    }
  });

  it('the atomic claims differ only in their locking clause', () => {
    const strip = (id: 'claim-skip-locked' | 'claim-for-update' | 'claim-nowait') => sqlText(id).replace(/FOR UPDATE( SKIP LOCKED| NOWAIT)?/, 'LOCK');
    expect(strip('claim-for-update')).toBe(strip('claim-skip-locked'));
    expect(strip('claim-nowait')).toBe(strip('claim-skip-locked'));
  });
});
