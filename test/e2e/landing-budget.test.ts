import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { measureLandingBundle, pageFiles } from '../../bench/landing-bundle.ts';

const DIST = fileURLToPath(new URL('../../client/dist', import.meta.url));

describe('the landing route’s bundle', () => {
  it('loads under 200 KB of gzipped JavaScript before it can draw', () => {
    const m = measureLandingBundle();
    // The home page must be a chunk of its own and the heavy battle code must stay out of it.
    expect(m.files.some((f) => /HomePage-.*\.js$/.test(f.file))).toBe(true);
    expect(m.files.some((f) => /ToolPage|HistoryPage|katex/i.test(f.file))).toBe(false);
    expect(m.jsGzip).toBeLessThan(200 * 1024);
  });

  it('is built compressed too: every file over 1 KB a tool page loads, and the app shell, has its brotli and gzip copy beside it', () => {
    const files = ['index.html', ...pageFiles(DIST, 'pages/Tool/ToolPage.tsx', { lazy: true })];
    // The few files under 1 KB may go without: a copy no smaller than the file is not written.
    const worth = files.filter((f) => readFileSync(path.join(DIST, f)).length >= 1024);
    expect(worth.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(5);
    for (const file of worth) {
      const plain = readFileSync(path.join(DIST, file));
      const br = readFileSync(path.join(DIST, `${file}.br`));
      const gz = readFileSync(path.join(DIST, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(plain), file).toBe(true);
      expect(gunzipSync(gz).equals(plain), file).toBe(true);
      // Brotli at its highest quality: smaller than the gzip copy of anything worth compressing.
      if (plain.length > 4096) expect(br.length, file).toBeLessThan(gz.length);
    }
  });
});
