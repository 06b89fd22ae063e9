/**
 * The client benchmark's anchor, run as a process of its own: a plain static server on 127.0.0.1
 * with two pages, gzipped and cached as the gateway serves the client (gzip, max-age one hour).
 *
 * - `/empty`: a complete HTML page with a heading and no subresources: what this machine scores.
 * - `/same-bytes`: the client's app shell (its head, a module script, a stylesheet) whose script and
 *   stylesheet weigh, gzipped, what the landing route's JavaScript and CSS weigh (`JS_GZIP`,
 *   `CSS_GZIP`, in bytes), but hold incompressible padding and run one line that draws a heading:
 *   the same bytes to fetch, nothing to run, no chunk waterfall and no API call.
 *
 * As a script it prints `{ url, jsGzip, cssGzip }` as one JSON line once it listens, and exits on
 * SIGTERM; {@link startAnchorPages} runs it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface AnchorPages {
  /** `http://127.0.0.1:<port>`: the pages are `/empty` and `/same-bytes`. */
  url: string;
  /** The gzipped sizes the same-bytes page's script and stylesheet reached, in bytes. */
  jsGzip: number;
  cssGzip: number;
  stop: () => Promise<void>;
}

const HEAD = `<meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="Duet: ask one question, watch two AI models answer side by side, and pick the better one." />
    <link rel="icon" href="data:," />
    <title>Duet</title>`;
const HEADING = 'Ask one question, watch two AI models answer side by side.';

/** Deterministic base64 text that gzip cannot shrink much, `chars` long. */
function padding(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += createHash('sha256').update(String(i)).digest('base64url');
  return out.slice(0, chars);
}

/** `wrap(padding)` whose gzipped size is within a few bytes of `target`. */
function sized(target: number, wrap: (pad: string) => string): Buffer {
  let chars = Math.max(0, Math.round(target / 0.76));
  let body = Buffer.from(wrap(padding(chars)));
  for (let i = 0; i < 6; i++) {
    const miss = target - gzipSync(body).length;
    if (Math.abs(miss) <= 8) break;
    chars = Math.max(0, chars + Math.round(miss / 0.76));
    body = Buffer.from(wrap(padding(chars)));
  }
  return body;
}

function pages(jsGzip: number, cssGzip: number): Map<string, { type: string; body: Buffer }> {
  const html = (head: string, body: string) =>
    Buffer.from(`<!doctype html>\n<html lang="en">\n  <head>\n    ${HEAD}\n${head}  </head>\n  <body>\n${body}  </body>\n</html>\n`);
  const js = sized(jsGzip, (pad) => `const padding = '${pad}';\ndocument.getElementById('root').innerHTML = '<main><h1>${HEADING}</h1></main>';\n`);
  const css = sized(cssGzip, (pad) => `/* ${pad} */\nbody { margin: 0; font-family: system-ui, sans-serif; }\nh1 { margin: 2rem; }\n`);
  return new Map([
    ['/empty', { type: 'text/html; charset=utf-8', body: html('', `    <main><h1>${HEADING}</h1></main>\n`) }],
    [
      '/same-bytes',
      {
        type: 'text/html; charset=utf-8',
        body: html(
          `    <script type="module" crossorigin src="/same-bytes.js"></script>\n    <link rel="stylesheet" crossorigin href="/same-bytes.css">\n`,
          '    <div id="root"></div>\n',
        ),
      },
    ],
    ['/same-bytes.js', { type: 'text/javascript; charset=utf-8', body: js }],
    ['/same-bytes.css', { type: 'text/css; charset=utf-8', body: css }],
    ['/robots.txt', { type: 'text/plain; charset=utf-8', body: Buffer.from('User-agent: *\nAllow: /\n') }],
  ]);
}

function serve(jsGzip: number, cssGzip: number): void {
  const files = new Map([...pages(jsGzip, cssGzip)].map(([path, f]) => [path, { ...f, gzip: gzipSync(f.body) }]));
  const server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://anchor').pathname);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(200, {
      'content-type': file.type,
      'cache-control': 'public, max-age=3600',
      vary: 'Accept-Encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(gzip ? file.gzip : file.body);
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    const info = { url: `http://127.0.0.1:${port}`, jsGzip: files.get('/same-bytes.js')!.gzip.length, cssGzip: files.get('/same-bytes.css')!.gzip.length };
    console.log(JSON.stringify(info));
  });
  // Chromium keeps connections open: exit without waiting for them.
  process.once('SIGTERM', () => process.exit(0));
}

/** Starts the anchor pages as a process of their own, sized to the landing route's JS and CSS (gzipped bytes). */
export function startAnchorPages(sizes: { jsGzip: number; cssGzip: number }): Promise<AnchorPages> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, JS_GZIP: String(sizes.jsGzip), CSS_GZIP: String(sizes.cssGzip) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the anchor pages exited early (${code}):\n${out}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const info = JSON.parse(line) as Omit<AnchorPages, 'stop'>;
      resolve({
        ...info,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(Number(process.env.JS_GZIP ?? 0), Number(process.env.CSS_GZIP ?? 0));
