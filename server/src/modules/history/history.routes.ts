import { PRODUCT, ZHistoryQuerySchema } from '@duet/contracts';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { AppError, parseOr400 } from '../../http/errors.ts';
import type { RenderedPage } from './history-cache.ts';
import type { HistoryService } from './history.service.ts';

/**
 * Sends a rendered page as the other answers go out (JSON, its `ETag`, 304 when the reader has it),
 * in the encoding the reader takes, compressed once for every reader of the page: the compression
 * middleware leaves an answer that has its `Content-Encoding` as it is.
 */
function sendPage(req: Request, res: Response, page: RenderedPage): void {
  res.vary('Accept-Encoding');
  res.type('json');
  res.set('ETag', page.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  // Brotli whenever the reader takes it, even ranked below gzip (the compression middleware would
  // follow the ranks): it is the smaller, and either is a valid answer.
  const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : null;
  if (encoding) {
    res.set('Content-Encoding', encoding);
    res.send(page.encoded(encoding));
  } else {
    res.send(page.json);
  }
}

export function historyRoutes(service: HistoryService): Router {
  const router = Router();

  router.get('/tools/:slug/history', async (req, res) => {
    const q = parseOr400(ZHistoryQuerySchema, req.query);
    sendPage(req, res, await service.history(String(req.params.slug), q.limit, q.cursor, q.view));
  });

  // The specification's own call, kept with its field names.
  router.get('/v2/user/:product/list/:id', async (req, res) => {
    if (req.params.product !== PRODUCT) throw new AppError(404, 'not_found', `Unknown product "${req.params.product}"`);
    const q = parseOr400(ZHistoryQuerySchema, req.query);
    sendPage(req, res, await service.specList(String(req.params.id), q.limit));
  });

  return router;
}
