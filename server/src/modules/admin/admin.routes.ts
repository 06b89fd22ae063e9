import { Router } from 'express';
import type { AdminService } from './admin.service.ts';

/** Operator routes; mount them behind `adminAuth`. */
export function adminRoutes(service: AdminService): Router {
  const router = Router();

  router.post('/battles/:id/takedown', async (req, res) => {
    res.json(await service.takeDown(String(req.params.id), 'api'));
  });

  router.post('/battles/:id/restore', async (req, res) => {
    res.json(await service.restore(String(req.params.id), 'api'));
  });

  return router;
}
