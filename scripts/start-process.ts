/**
 * `npm start` as a child process, for the test and the benchmark that load the app the way a newcomer
 * gets it: scripts/start.sh on a free port, ready once it prints its URL.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nobody listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface StartedApp {
  url: string;
  /** Everything the script printed so far, stdout and stderr together. */
  output: () => string;
  /** Ends the server: the script execs it, so its process group is the server. */
  stop: () => void;
}

/** Runs scripts/start.sh (from `cwd`) on `port` and resolves with its URL once it prints one. */
export async function startApp(options: { cwd?: string; port?: number; timeoutMs: number }): Promise<StartedApp> {
  const port = options.port ?? (await freePort());
  const child = spawn('bash', ['scripts/start.sh'], {
    cwd: options.cwd,
    env: { ...process.env, PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no URL within ${options.timeoutMs / 1000} s:\n${output}`)), options.timeoutMs);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = output.match(/Lease Lab is at (http:\/\/\S+\/)/);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited with ${code}:\n${output}`));
      });
    });
    return { url, output: () => output, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
