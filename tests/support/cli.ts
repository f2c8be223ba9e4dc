/**
 * `npm run sim -- …` two ways. `simProcess` starts Node on src/cli/main.ts, as a user does: for the tests
 * whose subject is the process (its exit code, that nothing else reaches stdout or stderr). `simInProcess`
 * calls the same command line's runCli in the test's own process, with console.log and console.error
 * captured: the same code path from argv to exit code, without a second of Node and tsx starting up for
 * every call.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { format } from 'node:util';
import { expect, vi } from 'vitest';
import { runCli } from '../../src/cli/main';
import { reusePgliteThreads } from '../../src/cli/pglite-thread';
import { reuseSpecClusters } from '../../src/db/pglite-spec';

export const projectRoot = join(__dirname, '../..');

export interface CliAnswer {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function simProcess(args: readonly string[], timeout = 240_000): CliAnswer {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/main.ts', ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A project script started with Node as `npm run` starts it (tsx, the `.sql?raw` loader), without waiting:
 * for a test that acts while it runs (stops the server under it, sends it a signal), or runs several at
 * once. `answer` settles when it exits, with `signal` when one ended it; past `timeout` it is killed.
 */
export function nodeStarted(
  script: string,
  args: readonly string[],
  timeout = 240_000,
): { child: ChildProcess; answer: Promise<CliAnswer & { signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', script, ...args], { cwd: projectRoot });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const answer = new Promise<CliAnswer & { signal: NodeJS.Signals | null }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, answer };
}

/** The CLI (`npm run sim -- …`) started as a user starts it, without waiting. */
export function simStarted(args: readonly string[], timeout = 240_000): ReturnType<typeof nodeStarted> {
  return nodeStarted('src/cli/main.ts', args, timeout);
}

/**
 * What the process would print, line by line as console.log and console.error write them. Calls in one
 * test file share one PGlite thread (pglite-thread.ts reusePgliteThreads): each reset seeds it afresh.
 */
export async function simInProcess(args: readonly string[]): Promise<CliAnswer> {
  let stdout = '';
  let stderr = '';
  reusePgliteThreads();
  // One PGlite cluster per test file for its specs, while each leaves it as it found it (src/db/pglite-spec.ts).
  reuseSpecClusters(() => expect.getState().testPath ?? '');
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      stdout += `${format(...parts)}\n`;
    }),
    ...(['error', 'warn'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...parts: unknown[]) => {
        stderr += `${format(...parts)}\n`;
      }),
    ),
  ];
  try {
    const code = await runCli([...args]);
    return { code, stdout, stderr };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
