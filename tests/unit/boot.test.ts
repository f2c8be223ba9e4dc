/**
 * Starting the lab's database: from the pre-built data directory (the fast path every start takes),
 * and the slow path it falls back to when that directory is missing, broken or stale.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLabDataDir } from '../../scripts/build-datadir-plugin.mjs';
import { bootLab, LAB_BUNDLE_FILES, LAB_DATA_DIR_URL, LAB_SCHEMA_FILE, labSchemaComment, startPrebuiltFreshCluster } from '../../src/db/pglite-boot';
import { labStartParams } from '../../src/db/pglite-open';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { runSchedule } from '../../src/engine/run';
import { Simulation } from '../../src/engine/simulation';
import { defaultSettings, SCENARIOS } from '../../src/scenarios';
import { threeWorkers } from '../../src/scenarios/three-workers';
import { STRATEGIES } from '../../src/sim/types';

/** A real SKIP LOCKED claim, parked with PREPARE TRANSACTION, and a second one that skips its row. */
async function expectClaimWorks(db: PGliteLab): Promise<Simulation> {
  const sim = new Simulation(db, threeWorkers, defaultSettings(threeWorkers));
  await sim.reset();
  const [claimA] = await sim.apply('A');
  expect(claimA?.verdict).toBe('ok');
  expect(claimA?.outcome).toMatchObject({ status: 'ok', rowCount: 1, rows: [{ run_id: 123 }] });
  expect(claimA?.locks).toEqual([{ session: 'A', runIds: [123] }]);
  // B's claim skips the row A's parked transaction still locks.
  const [claimB] = await sim.apply('B');
  expect(claimB?.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 124 }] });
  return sim;
}

/** A claim works (see expectClaimWorks) and the settings are the lab's. */
async function expectWorkingLab(db: PGliteLab): Promise<void> {
  const sim = await expectClaimWorks(db);

  const prepared = await db.pg.query<{ gid: string }>('SELECT gid FROM pg_prepared_xacts ORDER BY gid');
  expect(prepared.rows.map((row) => row.gid)).toEqual(['lease_lab_A', 'lease_lab_B']);
  await db.pg.exec(`BEGIN; UPDATE runs SET progress = progress + 1 WHERE run_id = 125; PREPARE TRANSACTION 'boot_test'`);
  await db.pg.exec(`COMMIT PREPARED 'boot_test'`);

  const settings = await db.pg.query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings WHERE name IN ('max_prepared_transactions', 'shared_buffers', 'TimeZone') ORDER BY name`,
  );
  expect(Object.fromEntries(settings.rows.map((row) => [row.name, row.setting]))).toEqual({
    max_prepared_transactions: '16',
    shared_buffers: '512', // 8 kB pages: 4 MB
    TimeZone: 'UTC',
  });
  await sim.reset();
  expect((await db.pg.query('SELECT gid FROM pg_prepared_xacts')).rows).toEqual([]);
}

/** The built data directory, unpacked. */
function builtTar(): Buffer {
  return gunzipSync(readFileSync(LAB_DATA_DIR_URL));
}

/** Where one file's bytes are inside a tar archive, or null if it has none of that name. */
function findEntry(tar: Buffer, entry: string): { start: number; size: number } | null {
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    if (!name) break;
    const size = Number.parseInt(tar.subarray(offset + 124, offset + 136).toString('utf8'), 8);
    if (name === entry) return { start: offset + 512, size };
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return null;
}

/** The text of one file inside a tar archive, or null if it has none of that name. */
function entryText(tar: Buffer, entry: string): string | null {
  const found = findEntry(tar, entry);
  return found && tar.subarray(found.start, found.start + found.size).toString('utf8');
}

/** Overwrites the start of one file inside a tar archive: with `text`, or with 0x55 bytes. */
function corruptEntry(tar: Buffer, entry: string, text?: string): Buffer {
  const found = findEntry(tar, entry);
  if (!found) throw new Error(`${entry} is not in the archive`);
  const copy = Buffer.from(tar);
  if (text === undefined) copy.fill(0x55, found.start, found.start + Math.min(found.size, 64));
  else copy.write(text.slice(0, found.size), found.start, 'utf8');
  return copy;
}

// vite.config.ts's labDataDir() plugin keeps it fresh before any test runs; this covers running without it.
beforeAll(() => {
  ensureLabDataDir();
});

describe('booting from the pre-built data directory', () => {
  it('exists, is small, and is where the boot code looks', () => {
    const file = fileURLToPath(LAB_DATA_DIR_URL);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeLessThan(3 * 2 ** 20);
  });

  it('carries no relation-cache init file: every start of Postgres removes them before a backend reads them', () => {
    const tar = builtTar();
    expect(['global/pg_internal.init', 'base/5/pg_internal.init'].filter((entry) => findEntry(tar, entry) !== null)).toEqual([]);
  });

  it("keeps initdb's settings in the configuration files, without its comment lines", async () => {
    const conf = entryText(builtTar(), 'postgresql.conf');
    expect(conf).not.toBeNull();
    const lines = conf!.trimEnd().split('\n');
    // One header line says what was done; every other line is a setting.
    expect(lines.filter((line) => line.trimStart().startsWith('#'))).toHaveLength(1);
    expect(lines).toContain('timezone = UTC');
    expect(lines.some((line) => line.startsWith('datestyle = '))).toBe(true);
    expect(conf!.length).toBeLessThan(2048);
    // And Postgres reads them as before.
    const boot = await bootLab();
    try {
      const settings = await boot.db.pg.query<{ name: string; setting: string }>(
        `SELECT name, setting FROM pg_settings WHERE name IN ('DateStyle', 'default_text_search_config') ORDER BY name`,
      );
      expect(Object.fromEntries(settings.rows.map((row) => [row.name, row.setting]))).toEqual({
        DateStyle: 'ISO, MDY',
        default_text_search_config: 'pg_catalog.english',
      });
    } finally {
      await boot.db.close();
    }
  });

  it('`spec` on PGlite has a fresh cluster built beside it: as initdb leaves it (the template databases, no lab schema), with the lab settings', async () => {
    const pglite = await import('@electric-sql/pglite');
    const pg = await startPrebuiltFreshCluster(pglite, {}, labStartParams(pglite.PGlite));
    expect(pg).not.toBeNull();
    try {
      const databases = await pg!.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY datname');
      expect(databases.rows.map((row) => row.datname)).toEqual(['postgres', 'template0', 'template1']);
      expect((await pg!.query(`SELECT nspname FROM pg_namespace WHERE nspname = 'sim'`)).rows).toEqual([]);
      const prepared = await pg!.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'max_prepared_transactions'`);
      expect(prepared.rows[0]?.setting).toBe('16');
    } finally {
      await pg!.close();
    }
  });

  it('gives a working database: claims, prepared transactions, the lab settings', async () => {
    const boot = await bootLab();
    try {
      expect(boot.fallbackReason).toBeNull();
      expect(boot.source).toBe('data-dir');
      const note = await boot.db.pg.query<{ note: string }>(`SELECT obj_description('sim'::regnamespace, 'pg_namespace') AS note`);
      expect(note.rows[0]?.note).toBe(labSchemaComment());
      // The file the boot reads from the archive says the same (writing the fingerprint over it changes nothing).
      expect(corruptEntry(builtTar(), LAB_SCHEMA_FILE, labSchemaComment()).equals(builtTar())).toBe(true);
      await expectWorkingLab(boot.db);
    } finally {
      await boot.db.close();
    }
  });

  it('accepts the data directory as bytes, compressed or not', async () => {
    const boot = await bootLab({ dataDir: builtTar() });
    try {
      expect(boot.source).toBe('data-dir');
      expect((await boot.db.runs()).length).toBe(0);
    } finally {
      await boot.db.close();
    }
  });

  it('leaves bytes it was given as they were: Postgres writes to its copy', async () => {
    const given = builtTar();
    const before = Buffer.from(given);
    const boot = await bootLab({ dataDir: given });
    try {
      await expectClaimWorks(boot.db);
      await boot.db.pg.exec('CHECKPOINT');
    } finally {
      await boot.db.close();
    }
    expect(given.equals(before)).toBe(true);
  });

  it('reads the array types on the first query(), not at start, and query() still returns arrays', async () => {
    const boot = await bootLab();
    try {
      const pg = boot.db.pg as PGlite;
      const INT4_ARRAY = 1007;
      // Starting and a lab step did not need them.
      await expectClaimWorks(boot.db);
      expect(pg.parsers[INT4_ARRAY]).toBeUndefined();
      const result = await pg.query<{ ids: number[]; names: string[] }>(`SELECT ARRAY[123, 124] AS ids, ARRAY['a', 'b c'] AS names`);
      expect(result.rows[0]).toEqual({ ids: [123, 124], names: ['a', 'b c'] });
      expect(pg.parsers[INT4_ARRAY]).toBeDefined();
    } finally {
      await boot.db.close();
    }
  });
});

/** The part of Emscripten's file system these tests look at. */
interface Files {
  open(path: string, ...rest: unknown[]): unknown;
  stat(path: string): { mode: number };
  isFile(mode: number): boolean;
  readFile(path: string): Uint8Array;
}

function filesOf(db: PGliteLab): Files {
  return (db.pg as unknown as { Module: { FS: Files } }).Module.FS;
}

describe("PGlite's file bundle: the lab's part first, the rest later (bundle: 'lab')", () => {
  it("plays every scenario under every strategy reading no file of the bundle but the lab's, as with the whole bundle", async () => {
    const lab = await bootLab({ bundle: 'lab' });
    const whole = await bootLab();
    try {
      const files = filesOf(lab.db);
      const opened = new Set<string>();
      const open = files.open.bind(files);
      files.open = (path: string, ...rest: unknown[]) => {
        // The bundle's files are under /pglite (and one under /home); the data directory, /pglite/data, is not one of them.
        if (typeof path === 'string' && /^\/(pglite|home)\//.test(path) && !path.startsWith('/pglite/data/')) opened.add(path);
        return open(path, ...rest);
      };
      for (const scenario of SCENARIOS) {
        for (const strategy of STRATEGIES) {
          const settings = { ...defaultSettings(scenario), strategy };
          const trace = await runSchedule(lab.db, scenario, settings, scenario.script, { onInapplicable: 'skip', finish: { kind: 'round-robin' } });
          if (strategy === defaultSettings(scenario).strategy) {
            const same = await runSchedule(whole.db, scenario, settings, scenario.script, { onInapplicable: 'skip', finish: { kind: 'round-robin' } });
            expect(trace).toEqual(same);
          }
        }
      }
      for (const piece of lab.db.warmUpPieces()) await piece();
      // Paths Postgres only tried (and found missing) are not files it read.
      const isFile = (path: string) => {
        try {
          return files.isFile(files.stat(path).mode);
        } catch {
          return false;
        }
      };
      const read = [...opened].filter(isFile);
      expect(read.filter((path) => !LAB_BUNDLE_FILES.includes(path))).toEqual([]);
    } finally {
      await lab.db.close();
      await whole.db.close();
    }
  });

  it('brings in the rest with completeBundle(): another time zone, a text search dictionary', async () => {
    const boot = await bootLab({ bundle: 'lab' });
    try {
      const files = filesOf(boot.db);
      const paris = '/pglite/share/postgresql/timezone/Europe/Paris';
      expect(files.readFile(paris).every((byte) => byte === 0)).toBe(true);
      await boot.completeBundle();
      expect(files.readFile(paris).some((byte) => byte !== 0)).toBe(true);
      await boot.db.pg.exec(`SET TIME ZONE 'Europe/Paris'`);
      const answer = await boot.db.pg.query(`SELECT current_setting('TimeZone') AS zone, to_tsvector('english', 'leases expired')::text AS words`);
      expect(answer.rows[0]).toEqual({ zone: 'Europe/Paris', words: "'expir':2 'leas':1" });
    } finally {
      await boot.db.close();
    }
  });
});

describe('falling back to initdb', () => {
  it('when the data directory is absent: a working database all the same', async () => {
    const boot = await bootLab({ dataDir: new URL('../../.cache/no-such-datadir.tar.gz', import.meta.url) });
    try {
      expect(boot.source).toBe('initdb');
      expect(boot.fallbackReason).toMatch(/could not be read/);
      await expectWorkingLab(boot.db);
    } finally {
      await boot.db.close();
    }
  });

  // Each case below would fall back the same way (an initdb, seconds each); `fallback: false` makes the
  // boot say why it would, instead.
  const unusable: Array<[string, () => Promise<Uint8Array | Blob>, RegExp]> = [
    ['not an archive (a server answering with its index page)', async () => new TextEncoder().encode('<!doctype html><title>app</title>'), /not a tar archive/],
    // The offline copy keeps the tar unpacked, with no gzip check over it (src/offline/service-worker.ts forCopy).
    ['cut short (an unpacked copy whose end was lost)', async () => builtTar().slice(0, 256 * 1024), /cut short/],
    ['broken inside (pg_control overwritten)', async () => corruptEntry(builtTar(), 'global/pg_control'), /Postgres did not start/],
    ['stale (built from another schema.sql)', staleDataDir, /another schema/],
  ];
  for (const [what, source, reason] of unusable) {
    it(`when the data directory is ${what}`, async () => {
      await expect(bootLab({ dataDir: await source(), fallback: false })).rejects.toThrow(reason);
    });
  }
});

/** The built data directory with another schema fingerprint (as built from another schema.sql). */
async function staleDataDir(): Promise<Buffer> {
  return corruptEntry(builtTar(), LAB_SCHEMA_FILE, 'lease-lab schema 00000000');
}
