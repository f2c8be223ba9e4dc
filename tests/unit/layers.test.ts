/** Keeps the house in order: the simulation core stays pure and only db/ touches a database driver. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const source = (path: string) => readFileSync(path, 'utf8');

describe('layers', () => {
  it('sim/ imports no framework, driver or renderer, and reads no wall clock or unseeded randomness', () => {
    for (const path of files(join(root, 'sim'))) {
      const text = source(path);
      expect(text, relative(root, path)).not.toMatch(/from '(react|react-dom|d3|d3-[a-z]+|zustand|@electric-sql\/pglite|pg)'/);
      expect(text, relative(root, path)).not.toMatch(/Date\.now|new Date\(\)|Math\.random|performance\.now/);
      expect(text, relative(root, path)).not.toMatch(/from '\.\.\/(db|engine|ui|store|timeline|worker)/);
    }
  });

  it('only db/ imports a database driver', () => {
    for (const path of files(root)) {
      if (relative(root, path).startsWith('db/')) continue;
      expect(source(path), relative(root, path)).not.toMatch(/from '(@electric-sql\/pglite[^']*|pg)'/);
    }
  });

  it('engine/ reaches the database only through the port', () => {
    for (const path of files(join(root, 'engine'))) {
      expect(source(path), relative(root, path)).not.toMatch(/from '\.\.\/db\/(?!port)/);
    }
  });
});
