import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { rawGet } from '../helpers/raw-get.ts';

const SHELL = '<!doctype html><title>Duet</title><script type="module" src="/assets/app-4f2a9c.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('a tool page '.repeat(200))});`;
// What the build's compressed copies hold: marked apart from the plain file, so a test can tell a
// copy the gateway sent as it is from one it compressed itself.
const SCRIPT_AS_BUILT = `${SCRIPT}/* compressed at build */`;
const SHELL_AS_BUILT = `${SHELL}<!-- compressed at build -->`;

/** A built client as the build writes it: each text file with its `.br` and `.gz` beside it. */
function builtClient(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'duet-client-'));
  mkdirSync(path.join(dir, 'assets'));
  const write = (file: string, plain: string, asBuilt = plain) => {
    writeFileSync(path.join(dir, file), plain);
    writeFileSync(path.join(dir, `${file}.br`), brotliCompressSync(asBuilt));
    writeFileSync(path.join(dir, `${file}.gz`), gzipSync(asBuilt));
  };
  write('index.html', SHELL, SHELL_AS_BUILT);
  write('assets/app-4f2a9c.js', SCRIPT, SCRIPT_AS_BUILT);
  writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\n');
  // A file where the API answers: the API's requests must never be looked up on disk.
  mkdirSync(path.join(dir, 'api'));
  writeFileSync(path.join(dir, 'api/leaderboard'), 'a file, not the API');
  return dir;
}

/** A GET with the raw bytes as they came. */
const get = (url: string, acceptEncoding?: string) => rawGet(url, acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });

const BROWSER = 'gzip, deflate, br, zstd';

describe("what a browser downloads: the client's files and the API's answers", () => {
  let duet: TestDuet;
  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true, env: { CLIENT_DIST: builtClient() } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it("are sent as the build compressed them, in the best encoding the browser takes, with the browser's own as a fallback", async () => {
    const br = await get(`${duet.url}/assets/app-4f2a9c.js`, BROWSER);
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/i);
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT_AS_BUILT);

    const gz = await get(`${duet.url}/assets/app-4f2a9c.js`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT_AS_BUILT);

    const plain = await get(`${duet.url}/assets/app-4f2a9c.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('lets a browser keep the hashed files for good, and makes it ask again for the app shell', async () => {
    const script = await get(`${duet.url}/assets/app-4f2a9c.js`, BROWSER);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['x-content-type-options']).toBe('nosniff');

    for (const route of ['/', '/quiz-solving-duet', '/history/quiz-solving-duet']) {
      const shell = await get(`${duet.url}${route}`, BROWSER);
      expect(shell.status, route).toBe(200);
      expect(shell.headers['cache-control'], route).toBe('no-cache');
      expect(shell.headers['content-encoding'], route).toBe('br');
      expect(brotliDecompressSync(shell.body).toString(), route).toBe(SHELL_AS_BUILT);
      expect(shell.headers['content-security-policy'], route).toContain("default-src 'self'");
    }
    expect((await get(`${duet.url}/index.html`)).headers['cache-control']).toBe('no-cache');
    expect((await get(`${duet.url}/robots.txt`)).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers a missing file under assets 404, and leaves the API to the API', async () => {
    expect((await get(`${duet.url}/assets/app-0000000.js`, BROWSER)).status).toBe(404);
    const api = await get(`${duet.url}/api/nothing-here`, BROWSER);
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    const board = await get(`${duet.url}/api/leaderboard`);
    expect(board.headers['content-type']).toMatch(/^application\/json/);
    expect(board.body.toString()).not.toContain('a file, not the API');
  });

  it('counts every file it serves in the request metrics', async () => {
    const served = async () => sampleValue(await scrape(duet.gateway.metricsUrl), 'duet_http_request_duration_seconds_count', { method: 'GET', route: 'none', status: '200' }) ?? 0;
    const before = await served();
    await get(`${duet.url}/assets/app-4f2a9c.js`, BROWSER);
    await get(`${duet.url}/assets/app-4f2a9c.js`, BROWSER);
    expect((await served()) - before).toBe(2);
  });

  it("compresses the API's larger answers as they are sent, in the encoding the browser takes", async () => {
    const plain = await get(`${duet.url}/api/tools`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await get(`${duet.url}/api/tools`, BROWSER);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const gz = await get(`${duet.url}/api/tools`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });
});
