import { Router } from 'express';
import type { ModelHealthService } from './model-health.service.ts';

/** The operators' view of the models' breakers; mount it behind the operators' API guard. */
export function modelHealthRoutes(service: Pick<ModelHealthService, 'report'>): Router {
  const router = Router();
  router.get('/models/health', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await service.report());
  });
  return router;
}
