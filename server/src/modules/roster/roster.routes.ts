import { ZModelCreateSchema, ZModelPatchSchema } from '@duet/contracts';
import { Router } from 'express';
import { parseOr400 } from '../../http/errors.ts';
import { actorOf } from '../../http/operator-actor.ts';
import type { RosterService } from './roster.service.ts';

/** The operators' roster; mount it behind the operators' API guard (it sets `res.locals.operator`). */
export function rosterRoutes(service: RosterService): Router {
  const router = Router();
  router.get('/models', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await service.list());
  });
  router.post('/models', async (req, res) => {
    res.status(201).json(await service.create(parseOr400(ZModelCreateSchema, req.body), actorOf(res)));
  });
  router.patch('/models/:id', async (req, res) => {
    res.json(await service.update(String(req.params.id), parseOr400(ZModelPatchSchema, req.body), actorOf(res)));
  });
  return router;
}
