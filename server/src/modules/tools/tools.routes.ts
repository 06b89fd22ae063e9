import { publicTools } from '@duet/contracts';
import type { Meta } from '@duet/contracts';
import { Router } from 'express';
import type { RequestHandler } from 'express';

/**
 * The activity catalog and what the client needs to know about this deployment. The page asks for
 * `/meta` as it loads: `device` gives the browser its device cookie there, before its first question.
 * `meta` is read at each request: the roster, and with it the demo flag and the challenge, change live.
 */
export function toolsRoutes(meta: () => Meta, device: RequestHandler): Router {
  const router = Router();
  const tools = publicTools();
  router.get('/tools', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300');
    res.json({ tools });
  });
  router.get('/meta', device, (_req, res) => {
    res.json(meta());
  });
  return router;
}
