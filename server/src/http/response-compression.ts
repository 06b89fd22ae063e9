import { constants } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * Compression of the API's answers, made as they are sent. Its levels are the fast ones, not the
 * library's defaults (brotli quality 4, gzip level 6): on a history page of answers the fast levels
 * take well under half the CPU for a few per cent more bytes, and every answer is compressed again
 * for every reader, on the gateway's one thread. The client's files are compressed once, at build
 * time (`client-app.ts`).
 */
export function responseCompression(): RequestHandler {
  const compress = compression({ level: GZIP_LEVEL, brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } } });
  // What a POST, PUT or DELETE answers is small (a vote's result, a battle's id and token, a
  // refusal), nearly always under the 1 KB below which nothing is compressed; the middleware still
  // wrapped every such answer's writes and headers (and added `Vary: Accept-Encoding`), a cost
  // every vote paid for nothing.
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? compress(req, res, next) : next());
}

/** The levels above, for answers compressed ahead of the middleware (it leaves an answer with a `Content-Encoding` as it is). */
export const BROTLI_QUALITY = 2;
export const GZIP_LEVEL = 2;
