import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { Router } from 'express';
import type { RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { notFoundHandler } from './errors.ts';

/** Paths the API and Socket.IO answer: never a file. */
const API = /^\/(api|socket\.io)\//;

/** Vite names every file under `assets/` by its content's hash: a new build gives new names. */
const HASHED = `${path.sep}assets${path.sep}`;

/**
 * How long a browser may keep a file: the hashed ones for good, the app shell never without asking
 * again (it names the current build's files), anything else (icons, images) an hour.
 */
function cacheHeaders(dist: string) {
  return (res: ServerResponse, file: string) => {
    const served = path.relative(dist, file).replace(/\.(br|gz)$/, '');
    if (`${path.sep}${served}`.startsWith(HASHED)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    else if (served === 'index.html') res.setHeader('Cache-Control', 'no-cache');
  };
}

/**
 * The built client, when there is one (else null): `files` serves its files, `shell` the app shell
 * for every other GET outside the API and the built files (client-side routes). The build writes
 * each text file compressed beside it (`.br`, `.gz`): those are sent as they are to a browser that
 * accepts them, so serving a visitor costs no compression. `files` goes before the response
 * compression and the request log (a visit asks for some twenty files; the request metrics still
 * count them), `shell` after the API; `html` is the shell's text. Source maps give away the client's source: served only when
 * `serveSourceMaps` says so.
 */
export function clientApp(opts: { dist: string; serveSourceMaps: boolean }): { files: Router; shell: RequestHandler; html: () => string } | null {
  const dist = path.resolve(opts.dist);
  if (!opts.dist || !existsSync(path.join(dist, 'index.html'))) return null;
  const serve: RequestHandler = expressStaticGzip(dist, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { index: false, maxAge: '1h', setHeaders: cacheHeaders(dist) },
  });
  const files = Router();
  // The API's requests pass by without a look at the disk.
  files.use((req, _res, next) => next(API.test(req.path) ? 'router' : undefined));
  if (!opts.serveSourceMaps) files.get(/\.map$/, notFoundHandler);
  files.use(serve);
  const shell: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // A built file that is not there (a page open since the build before) is a 404, not the shell.
    if (API.test(req.path) || req.path.startsWith('/assets/')) return next();
    const asked = req.url;
    req.url = '/index.html';
    serve(req, res, (err?: unknown) => {
      req.url = asked;
      next(err);
    });
  };
  // Read once: pages built on the shell (a shared battle's) send it with their own head.
  let html: string | undefined;
  return { files, shell, html: () => (html ??= readFileSync(path.join(dist, 'index.html'), 'utf8')) };
}
