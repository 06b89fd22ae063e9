import { publicTools } from '@duet/contracts';
import type { Meta } from '@duet/contracts';
import { Router } from 'express';

/** The activity catalog and what the client needs to know about this deployment. */
export function toolsRoutes(meta: Meta): Router {
  const router = Router();
  const tools = publicTools();
  router.get('/tools', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300');
    res.json({ tools });
  });
  router.get('/meta', (_req, res) => {
    res.json(meta);
  });
  return router;
}
