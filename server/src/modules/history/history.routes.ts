import { PRODUCT, ZHistoryQuerySchema } from '@duet/shared';
import { Router } from 'express';
import { AppError, parseOr400 } from '../../http/errors.ts';
import type { HistoryService } from './history.service.ts';

export function historyRoutes(service: HistoryService): Router {
  const router = Router();

  router.get('/tools/:slug/history', async (req, res) => {
    const q = parseOr400(ZHistoryQuerySchema, req.query);
    res.json(await service.history(String(req.params.slug), q.limit, q.cursor));
  });

  // The specification's own call, kept with its field names.
  router.get('/v2/user/:product/list/:id', async (req, res) => {
    if (req.params.product !== PRODUCT) throw new AppError(404, 'not_found', `Unknown product "${req.params.product}"`);
    const q = parseOr400(ZHistoryQuerySchema, req.query);
    res.json(await service.specList(String(req.params.id), q.limit));
  });

  return router;
}
