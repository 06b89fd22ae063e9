import { existsSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { Express } from 'express';
import { notFoundHandler } from './errors.ts';

/**
 * Serves the built client, when there is one: its files, and the app shell for every other GET
 * outside the API (client-side routes). Source maps give away the client's source: served only
 * when `serveSourceMaps` says so.
 */
export function serveClient(app: Express, opts: { dist: string; serveSourceMaps: boolean }): void {
  const dist = path.resolve(opts.dist);
  if (!opts.dist || !existsSync(path.join(dist, 'index.html'))) return;
  if (!opts.serveSourceMaps) app.get(/\.map$/, notFoundHandler);
  app.use(express.static(dist, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/api\/|\/socket\.io\/).*/, (_req, res) => res.sendFile(path.join(dist, 'index.html')));
}
