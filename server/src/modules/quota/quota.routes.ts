import { ZQuotasChangeSchema } from '@duet/contracts';
import { Router } from 'express';
import { parseOr400 } from '../../http/errors.ts';
import { actorOf } from '../../http/operator-actor.ts';
import type { QuotaService } from './quota.service.ts';

/** The operators' view of the quotas; mount it behind the operators' API guard. */
export function quotaRoutes(service: Pick<QuotaService, 'report' | 'setQuotas'>): Router {
  const router = Router();
  router.get('/quotas', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await service.report());
  });
  router.put('/quotas', async (req, res) => {
    res.json(await service.setQuotas(parseOr400(ZQuotasChangeSchema, req.body), actorOf(res)));
  });
  return router;
}
