/**
 * What the landing route `/` loads before it can draw: the entry chunk, its static imports,
 * the lazily loaded home page and its static imports, and the CSS, each gzipped as the gateway
 * serves it. Reads Vite's manifest from a built client (`npm run build`).
 *
 *   npx tsx bench/landing-bundle.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export interface LandingBundle {
  files: Array<{ file: string; bytes: number; gzip: number }>;
  jsGzip: number;
  cssGzip: number;
}

const DIST = fileURLToPath(new URL('../client/dist', import.meta.url));

export function measureLandingBundle(dist = DIST): LandingBundle {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit('index.html');
  const home = Object.keys(manifest).find((k) => k.endsWith('pages/Home/HomePage.tsx'));
  if (!home) throw new Error('No home page chunk in the manifest');
  visit(home);
  const files = [...[...seen].map((k) => manifest[k]!.file), ...css].map((file) => {
    const data = readFileSync(path.join(dist, file));
    return { file, bytes: data.length, gzip: gzipSync(data).length };
  });
  const sum = (ext: string) => files.filter((f) => f.file.endsWith(ext)).reduce((n, f) => n + f.gzip, 0);
  return { files, jsGzip: sum('.js'), cssGzip: sum('.css') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const m = measureLandingBundle();
  for (const f of m.files) console.log(`${f.file.padEnd(48)} ${(f.bytes / 1024).toFixed(1).padStart(8)} KB  gzip ${(f.gzip / 1024).toFixed(1).padStart(6)} KB`);
  console.log(`\nlanding route JavaScript: ${(m.jsGzip / 1024).toFixed(1)} KB gzipped; CSS ${(m.cssGzip / 1024).toFixed(1)} KB gzipped`);
}
