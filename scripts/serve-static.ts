/**
 * A small static file server for the built app, as a production host would serve it: correct
 * Content-Types (application/wasm for streaming compilation), pre-compressed siblings (`x.wasm.br` /
 * `x.wasm.gz`, written by the build) sent with Content-Encoding when the browser accepts them, long
 * caching for hashed assets, the whole site under any sub-path, and the page's Content-Security-Policy
 * repeated as a header on every response (so it covers the Web Worker's script too, which a <meta> tag
 * does not) with `frame-ancestors *` added (which a <meta> tag cannot carry): any page may embed the
 * static lab (`?embed`); live mode's bridge (src/live/server.ts) refuses every frame.
 *
 *   node --import tsx scripts/serve-static.ts dist [--port 4180] [--mount /some/sub/path/] [--host 127.0.0.1]
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONTENT_TYPES } from '../src/live/content-types';
import { headerContentSecurityPolicy } from '../src/live/page-policy';

export interface StaticServerOptions {
  /** The directory to serve. */
  root: string;
  /** The URL path the directory appears under, e.g. '/some/sub/path/'. Default '/'. */
  mount?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Serve `.br` / `.gz` siblings when present (default true). */
  precompressed?: boolean;
  /**
   * The Content-Security-Policy header. Default: the policy in the served index.html's <meta> tag plus
   * `frame-ancestors *`; null: none.
   */
  contentSecurityPolicy?: string | null;
}

export interface StaticServer {
  /** The site's URL, ending in '/'. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = resolve(options.root);
  const mount = `/${(options.mount ?? '/').replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
  const precompressed = options.precompressed !== false;
  const policy = options.contentSecurityPolicy === undefined ? headerContentSecurityPolicy(root, 'any-origin') : options.contentSecurityPolicy;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (policy) response.setHeader('Content-Security-Policy', policy);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad request\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (`${path}/` === mount) {
      response.writeHead(301, { Location: mount }).end();
      return;
    }
    if (!path.startsWith(mount)) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    let file = resolve(root, `.${sep}${path.slice(mount.length)}`);
    if (file !== root && !file.startsWith(root + sep)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith('/')) {
        response.writeHead(301, { Location: `${url.pathname}/` }).end();
        return;
      }
      file = join(file, 'index.html');
    }
    if (!existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    const headers: Record<string, string | number> = {
      'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': /[/\\]assets[/\\]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    let body = file;
    if (precompressed) {
      const accepts = String(request.headers['accept-encoding'] ?? '');
      for (const [encoding, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        if (accepts.includes(encoding) && existsSync(file + suffix)) {
          body = file + suffix;
          headers['Content-Encoding'] = encoding;
          break;
        }
      }
      headers.Vary = 'Accept-Encoding';
    }
    headers['Content-Length'] = statSync(body).size;
    response.writeHead(200, headers);
    if (request.method === 'HEAD') response.end();
    else createReadStream(body).pipe(response);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => done());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}${mount}`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { port: { type: 'string' }, mount: { type: 'string' }, host: { type: 'string' } },
  });
  const root = positionals[0] ?? 'dist';
  const port = Number(values.port ?? 4180);
  const host = values.host ?? '127.0.0.1';
  if (!existsSync(join(root, 'index.html'))) {
    console.error(`lease-lab: ${resolve(root)} has no index.html: build it first (npm run build), or use npm start`);
    process.exit(2);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`lease-lab: --port takes a whole number from 0 to 65535, not "${values.port}"`);
    process.exit(2);
  }
  try {
    const served = await startStaticServer({ root, port, mount: values.mount ?? '/', host });
    console.log(`Lease Lab is at ${served.url}  (serving ${resolve(root)}; Ctrl+C stops it)`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `port ${port} is in use (PORT=another npm start picks another)`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine`
          : String(error);
    console.error(`lease-lab: cannot serve on ${host}:${port}: ${why}`);
    process.exit(2);
  }
}
