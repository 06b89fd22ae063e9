import { ZBudgetsChangeSchema } from '@duet/contracts';
import { Router } from 'express';
import { parseOr400 } from '../../http/errors.ts';
import { actorOf } from '../../http/operator-actor.ts';
import type { BudgetService } from './budget.service.ts';

/** The operators' view of spend and budgets; mount it behind the operators' API guard. */
export function budgetRoutes(service: Pick<BudgetService, 'report' | 'setBudgets'>): Router {
  const router = Router();
  router.get('/spend', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await service.report());
  });
  router.put('/budgets', async (req, res) => {
    res.json(await service.setBudgets(parseOr400(ZBudgetsChangeSchema, req.body), actorOf(res)));
  });
  return router;
}
