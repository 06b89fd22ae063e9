/**
 * What the landing route `/` loads before it can draw: the entry chunk, its static imports,
 * the lazily loaded home page and its static imports, and the CSS, each gzipped as the gateway
 * serves it. Reads Vite's manifest from a built client (`npm run build`).
 *
 *   npx tsx bench/landing-bundle.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

/** Builds the client of the checkout at `root` (`npm run build`) when `force` or when it has no build yet; returns its `client/dist`. */
export function ensureClientBuilt(root: string, force = false): string {
  const dist = path.join(root, 'client/dist');
  if (force || !existsSync(path.join(dist, '.vite/manifest.json'))) {
    console.error(`building the client of ${root} (npm run build) …`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (build.status !== 0) throw new Error('The client build failed');
  }
  return dist;
}

/**
 * The built files a page of the client loads, in its manifest's order: the entry chunk and its
 * static imports, the page's lazily loaded chunk (`page`: the end of its source path, e.g.
 * `pages/Home/HomePage.tsx`) and its static imports, and their CSS; with `lazy`, also what those
 * load later on their own (e.g. the Markdown renderer a tool page fetches once an answer arrives).
 * Paths relative to `dist`.
 */
export function pageFiles(dist: string, page: string, opts: { lazy?: boolean } = {}): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const css = new Set<string>();
  const later: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
    if (key !== 'index.html') later.push(...(chunk.dynamicImports ?? []));
  };
  visit('index.html');
  const pageKey = Object.keys(manifest).find((k) => k.endsWith(page));
  if (!pageKey) throw new Error(`No chunk for ${page} in the manifest`);
  visit(pageKey);
  if (opts.lazy) for (const key of later) visit(key);
  return [...[...seen].map((k) => manifest[k]!.file), ...css];
}

export function measureLandingBundle(dist = DIST): LandingBundle {
  const files = pageFiles(dist, 'pages/Home/HomePage.tsx').map((file) => {
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
