/**
 * Shipping the build: the static server (sub-path, pre-compressed copies, security headers), the
 * documented policy, and the offline copy's build side (which files, which version, a classic script)
 * and the page's status.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStaticServer } from '../../scripts/serve-static';
import { metaContentSecurityPolicy } from '../../src/live/page-policy';
import { createOfflineStatus, saveOfflineCopy } from '../../src/offline/status';
import { asClassicScript, describeBuild, offlineFiles } from '../../src/offline/vite-plugin.mjs';

const REPO = join(__dirname, '../..');

/** A GET (or HEAD) with the given headers: status, headers and body as text. */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('latin1') }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the static server', () => {
  const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

  it('serves the site under its sub-path only, with the right types, pre-compressed copies and the page policy as a header', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lease-lab-serve-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), `<html><head><meta http-equiv="Content-Security-Policy" content="${policy}" /></head></html>`);
    writeFileSync(join(root, 'assets', 'pg.wasm'), 'raw wasm');
    writeFileSync(join(root, 'assets', 'pg.wasm.gz'), 'gzip copy');
    writeFileSync(join(root, 'assets', 'pg.wasm.br'), 'brotli copy');
    writeFileSync(join(root, 'assets', 'data.tar-x.gz'), 'a gzip asset');
    const served = await startStaticServer({ root, mount: '/some/sub/path/' });
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/some\/sub\/path\/$/);
      const page = await get(served.url);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(`${policy}; frame-ancestors *`);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect((await get(served.url.replace(/\/$/, ''))).status).toBe(301);
      expect((await get(served.url.replace('/some/sub/path/', '/index.html'))).status).toBe(404);

      const wasm = `${served.url}assets/pg.wasm`;
      const brotli = await get(wasm, { 'accept-encoding': 'gzip, deflate, br' });
      expect([brotli.body, brotli.headers['content-encoding'], brotli.headers['content-type'], brotli.headers.vary]).toEqual([
        'brotli copy',
        'br',
        'application/wasm',
        'Accept-Encoding',
      ]);
      expect(brotli.headers['cache-control']).toContain('immutable');
      const gzip = await get(wasm, { 'accept-encoding': 'gzip' });
      expect([gzip.body, gzip.headers['content-encoding']]).toEqual(['gzip copy', 'gzip']);
      const plain = await get(wasm);
      expect([plain.body, plain.headers['content-encoding']]).toEqual(['raw wasm', undefined]);
      const asset = await get(`${served.url}assets/data.tar-x.gz`, { 'accept-encoding': 'gzip, br' });
      expect([asset.body, asset.headers['content-type'], asset.headers['content-encoding']]).toEqual(['a gzip asset', 'application/gzip', undefined]);

      expect((await get(`${served.url}%E0%A4%A`)).status).toBe(400);
      expect((await get(`${served.url}..%2f..%2fetc%2fpasswd`)).status).toBe(403);
      expect((await get(wasm, {}, 'POST')).status).toBe(405);
    } finally {
      await served.close();
    }
  });

  it('the README gives the header the server sends: the page policy plus frame-ancestors (any page may embed the static lab)', () => {
    const pagePolicy = metaContentSecurityPolicy(readFileSync(join(REPO, 'index.html'), 'utf8'));
    expect(pagePolicy).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain(`Content-Security-Policy: ${pagePolicy}; frame-ancestors *`);
  });
});

describe('the files the service worker keeps', () => {
  it('keeps every file but pre-compressed copies, source maps and sw.js; a .gz without its original is an asset', () => {
    const output = [
      'index.html',
      'index.html.gz',
      'sw.js',
      'assets\\index-abc.js',
      'assets/index-abc.js.gz',
      'assets/index-abc.js.br',
      'assets/index-abc.js.map',
      'assets/pglite-x.wasm',
      'assets/pglite-x.wasm.br',
      'assets/lab-datadir.tar-y.gz',
    ];
    expect(offlineFiles(output)).toEqual(['assets/index-abc.js', 'assets/lab-datadir.tar-y.gz', 'assets/pglite-x.wasm', 'index.html']);
  });

  it('versions the build by content: a changed asset is a new version, a new .gz copy is not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lease-lab-offline-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'one');
    const first = describeBuild(dir);
    expect(first.files).toEqual(['assets/app.js', 'index.html']);
    writeFileSync(join(dir, 'assets', 'app.js.gz'), 'compressed');
    expect(describeBuild(dir).version).toBe(first.version);
    // A .gz that is no copy (the data directory) is kept unpacked; a pre-compressed copy is not kept at all.
    writeFileSync(join(dir, 'assets', 'lab-datadir.tar-y.gz'), 'archive');
    expect(describeBuild(dir).unpack).toEqual(['assets/lab-datadir.tar-y.gz']);
    writeFileSync(join(dir, 'assets', 'app.js'), 'two');
    expect(describeBuild(dir).version).not.toBe(first.version);
  });

  it('makes the type-stripped worker a classic script, and refuses one that still imports', () => {
    expect(asClassicScript('const a = 1;\nexport {};\n')).toBe('const a = 1;\n\n');
    expect(() => asClassicScript("import { x } from './x';\nx();")).toThrow(/classic script/);
  });
});

describe('the offline status', () => {
  it('follows online and offline, and tells subscribers only of changes', () => {
    const status = createOfflineStatus(true);
    let calls = 0;
    status.subscribe(() => calls++);
    status.setOnline(true);
    status.setOnline(false);
    expect(status.snapshot()).toEqual({ copy: 'none', online: false });
    expect(calls).toBe(1);
  });

  it('is saved once the registered worker is active, and none when registering fails', async () => {
    const saved = createOfflineStatus(true);
    const seen: string[] = [];
    saved.subscribe(() => seen.push(saved.snapshot().copy));
    const registration = { active: {}, installing: null };
    await saveOfflineCopy({ register: async () => registration, ready: Promise.resolve(registration) } as unknown as ServiceWorkerContainer, saved);
    expect(seen).toEqual(['saving', 'saved']);

    const refused = createOfflineStatus(true);
    await saveOfflineCopy(
      { register: () => Promise.reject(new TypeError('insecure')), ready: new Promise(() => {}) } as unknown as ServiceWorkerContainer,
      refused,
    );
    expect(refused.snapshot().copy).toBe('none');
  });
});
