/**
 * `npm start` serves what we ship: the built app from dist/, by the project's own static server, with
 * the Content-Security-Policy header and pre-compressed files, and says where in one line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect, outcome, stepTimes, test, waitReady } from './fixtures';

let child: ChildProcess | null = null;
test.afterEach(() => {
  // The script execs the server; its process group is the server.
  if (child?.pid) process.kill(-child.pid, 'SIGTERM');
  child = null;
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

test('npm start serves the built app with its security headers, and the race runs there', async ({ page }) => {
  const port = await freePort();
  child = spawn('bash', ['scripts/start.sh'], { env: { ...process.env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL:\n${output}`)), 170_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(/Lease Lab is at (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child!.stdout!.on('data', read);
    child!.stderr!.on('data', read);
    child!.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  expect(url).toBe(`http://127.0.0.1:${port}/`);
  // Nothing but the build's one progress line (when it had to build) and the URL: no warnings.
  expect(output.trim().split('\n').filter((line) => !/^lease-lab: (building the app|installing npm)/.test(line))).toEqual([expect.stringMatching(/^Lease Lab is at /)]);

  const response = await page.goto(url);
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  // The built page, not the dev server: no Vite client, hashed assets, Postgres served pre-compressed.
  const html = await response!.text();
  expect(html).not.toContain('/@vite/client');
  expect(html).toMatch(/assets\/index-[\w-]+\.js/);
  await waitReady(page);
  const wasm = readdirSync('dist/assets').find((name) => /^pglite-[\w-]+\.wasm$/.test(name));
  expect(wasm).toBeDefined();
  const compressed = await page.request.get(`${url}assets/${wasm}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(compressed.headers()['content-encoding']).toBe('br');
  expect(compressed.headers()['content-type']).toBe('application/wasm');
  await stepTimes(page, 2);
  await expect(outcome(page)).toContainText('B read run 123 as pending');
});
