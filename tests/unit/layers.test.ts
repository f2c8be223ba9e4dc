/**
 * The layer rules in .dependency-cruiser.cjs, run by dependency-cruiser: the real tree has no violation (there is
 * no baseline of known ones), and violations planted in a scratch directory (never the real tree) are reported,
 * so the rules can fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const project = join(__dirname, '../..');
const config = join(project, '.dependency-cruiser.cjs');

function cruise(cwd: string, ...extra: string[]) {
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      join(project, 'scripts/depcruise-swc-tsx.mjs'),
      join(project, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      'src',
      '--config',
      config,
      '--output-type',
      'err',
      ...extra,
    ],
    { cwd, encoding: 'utf8' },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const scratch = mkdtempSync(join(tmpdir(), 'lease-lab-layers-'));
symlinkSync(join(project, 'node_modules'), join(scratch, 'node_modules'), 'dir');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function plant(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
}

/**
 * A cruise of the whole tree is a few seconds of one core on a quiet machine, and took 37–42 s beside other
 * work (load average 25): the limit is there to end a hang, not to time it.
 */
const CRUISE_LIMIT_MS = 300_000;

describe('layers (dependency-cruiser)', () => {
  it(
    'the real tree has no violation',
    () => {
      const { status, output } = cruise(project);
      expect(output).toContain('no dependency violations found');
      expect(status).toBe(0);
    },
    CRUISE_LIMIT_MS,
  );

  it(
    'a planted violation fails the run: static and dynamic imports, .tsx, Node-only code in the browser, a path that does not resolve, a package in sim/, a driver outside db/, engine/ past the port, a view on the composition root, Node code on browser code',
    () => {
      plant({
        'src/ui/view.tsx': 'export const View = () => <div />;\n',
        'src/sim/planted.ts': "import { View } from '../ui/view';\nexport const planted = View;\n",
        'src/store/lazy.ts': "export const load = () => import('../engine/run');\n",
        'src/engine/run.ts': 'export const run = 1;\n',
        'src/ui/cli-user.tsx': "import { main } from '../cli/main';\nexport const Main = () => <p>{String(main)}</p>;\n",
        'src/cli/main.ts': 'export const main = 1;\n',
        'src/webworker/fs.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
        'src/sim/typo.ts': "export { run } from '../engine/runn';\n",
        'src/sim/store.ts': "export { createStore } from 'zustand/vanilla';\n",
        'src/ui/driver.ts': "export { PGlite } from '@electric-sql/pglite';\n",
        'src/engine/adapter.ts': "export { open } from '../db/pglite-lab';\n",
        'src/db/pglite-lab.ts': 'export const open = 1;\n',
        'src/ui/root-user.tsx': "import { startPage } from '../app/page';\nexport const Root = () => <p>{String(startPage)}</p>;\n",
        'src/app/page.tsx': 'export const startPage = 1;\n',
        'src/live/header.ts': "export { LIVE } from '../db/bridge-lab';\n",
        'src/db/bridge-lab.ts': 'export const LIVE = 1;\n',
      });
      const { status, output } = cruise(scratch);
      expect(status).not.toBe(0);
      expect(output).toContain('layer-sim: src/sim/planted.ts → src/ui/view.tsx');
      expect(output).toContain('layer-store: src/store/lazy.ts → src/engine/run.ts');
      expect(output).toContain('no-node-only-in-browser: src/ui/cli-user.tsx → src/cli/main.ts');
      expect(output).toContain('no-node-builtins-core-in-browser: src/webworker/fs.ts → fs');
      expect(output).toContain('not-to-unresolvable: src/sim/typo.ts → ../engine/runn');
      expect(output).toMatch(/sim-is-pure: src\/sim\/store\.ts → .*node_modules\/zustand\//);
      expect(output).toMatch(/driver-only-in-db: src\/ui\/driver\.ts → .*node_modules\/@electric-sql\/pglite\//);
      expect(output).toContain('engine-through-the-port: src/engine/adapter.ts → src/db/pglite-lab.ts');
      expect(output).toContain('layer-ui: src/ui/root-user.tsx → src/app/page.tsx');
      expect(output).toContain('node-not-to-browser-code: src/live/header.ts → src/db/bridge-lab.ts');
    },
    CRUISE_LIMIT_MS,
  );
});

// Not an import rule, so not the cruiser's: the simulation core reads no wall clock and no unseeded randomness.
describe('sim/ is deterministic', () => {
  const root = join(project, 'src/sim');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return files(path);
      return /\.tsx?$/.test(name) ? [path] : [];
    });

  it('reads no wall clock and no unseeded randomness', () => {
    for (const path of files(root)) {
      expect(readFileSync(path, 'utf8'), relative(root, path)).not.toMatch(/Date\.now|new Date\(\)|Math\.random|performance\.now/);
    }
  });
});
