/**
 * Serves the built app from the bridge's own origin, so the page, its Web Worker and the bridge's API
 * share one origin: the page's Content-Security-Policy (its own <meta> tag, sent as a header) says 'self'
 * and the page talks to nothing else.
 * Every response carries LIVE_HEADER; the engine's worker looks for it on its own script to learn that
 * it was served by the bridge (a plain static server never sends it, and no extra request can fail).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { LIVE_HEADER } from '../db/live-header';
import { CONTENT_TYPES } from './content-types';

/** Headers on every answer of the bridge; `policy` is the page's own (src/live/page-policy.ts). */
export function securityHeaders(policy: string | null): Record<string, string> {
  return {
    ...(policy ? { 'Content-Security-Policy': policy } : {}),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    [LIVE_HEADER]: '1',
  };
}

/**
 * GET or HEAD of a file under `root` (index.html for a directory); a pre-compressed .gz sibling when the
 * browser takes gzip. `headersForAll` go on every answer (securityHeaders with the page's policy).
 */
export function serveFile(root: string, request: IncomingMessage, response: ServerResponse, pathname: string, headersForAll: Record<string, string>): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', ...headersForAll }).end();
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', ...headersForAll }).end('the path is not valid percent-encoding\n');
    return;
  }
  let file = resolve(root, `.${sep}${decoded}`);
  if (file !== root && !file.startsWith(root + sep)) {
    response.writeHead(403, headersForAll).end();
    return;
  }
  if (existsSync(file) && statSync(file).isDirectory()) file = resolve(file, 'index.html');
  if (!existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', ...headersForAll }).end('not found\n');
    return;
  }
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  const gzip = `${file}.gz`;
  const useGzip = extname(file) !== '.gz' && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) && existsSync(gzip);
  const sent = useGzip ? gzip : file;
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Content-Length': String(statSync(sent).size),
    // Hashed assets never change; the page itself must be fetched afresh (it may be a new build).
    'Cache-Control': pathname.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    Vary: 'Accept-Encoding',
    ...headersForAll,
  };
  if (useGzip) headers['Content-Encoding'] = 'gzip';
  response.writeHead(200, headers);
  if (request.method === 'HEAD') response.end();
  else createReadStream(sent).pipe(response);
}
