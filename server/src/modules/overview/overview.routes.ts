import { Router } from 'express';
import type { OverviewService } from './overview.service.ts';

/** `GET /now`: the campaign at a glance; mount it behind the operators' API guard. */
export function overviewRoutes(service: OverviewService): Router {
  const router = Router();
  router.get('/now', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await service.now());
  });
  return router;
}
