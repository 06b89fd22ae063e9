/**
 * The anchor for serving the client: the least serving its files can cost on this machine. A bare
 * `node:http` server (no framework, no logging, no file system at request time) holding every file
 * of `FILES` (paths under `DIST`, a JSON array) and the app shell at `PAGE` in memory, compressed
 * once at start-up with brotli at its highest quality, as a CDN or a web server serving
 * precompressed files sends them. Prints `listening <port>` once it listens; stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';

const dist = process.env.DIST!;
const files = JSON.parse(process.env.FILES!) as string[];
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8' };
const bodies = new Map<string, { body: Buffer; type: string }>();
for (const [url, file] of [[process.env.PAGE!, 'index.html'], ...files.map((f) => [`/${f}`, f])] as Array<[string, string]>) {
  bodies.set(url, { body: brotliCompressSync(readFileSync(path.join(dist, file))), type: TYPES[path.extname(file)] ?? 'application/octet-stream' });
}

const server = http.createServer((req, res) => {
  const hit = bodies.get(req.url ?? '');
  if (!hit) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': hit.type, 'content-encoding': 'br', 'content-length': hit.body.length, vary: 'Accept-Encoding' });
  res.end(hit.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
