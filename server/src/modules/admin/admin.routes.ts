import { ZOperatorDecisionSchema } from '@duet/contracts';
import type { OperatorDecision } from '@duet/contracts';
import { Router } from 'express';
import type { Request } from 'express';
import { AppError, parseOr400 } from '../../http/errors.ts';
import { actorOf } from '../../http/operator-actor.ts';
import type { UserService } from '../users/user.service.ts';
import type { AdminService } from './admin.service.ts';

/** A decision's body is optional as a whole (none: no reason); one sent must be JSON, or its reason would be lost unseen. */
function decisionOf(req: Request): OperatorDecision {
  if (req.body === undefined) {
    const sent = req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
    if (sent) throw new AppError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json): { "reason": "..." }');
    return {};
  }
  return parseOr400(ZOperatorDecisionSchema, req.body);
}

/** Operator routes; mount them behind the operators' API guard (`operator-auth.ts`). */
export function adminRoutes(service: AdminService, users: Pick<UserService, 'deleteAccountsOf'>): Router {
  const router = Router();

  router.post('/battles/:id/approve', async (req, res) => {
    res.json(await service.approve(String(req.params.id), actorOf(res), decisionOf(req)));
  });

  router.post('/battles/:id/takedown', async (req, res) => {
    res.json(await service.takeDown(String(req.params.id), actorOf(res), decisionOf(req)));
  });

  router.post('/battles/:id/restore', async (req, res) => {
    res.json(await service.restore(String(req.params.id), actorOf(res), decisionOf(req)));
  });

  // A person who cannot sign in any more writes to support: their account, by id, Firebase uid or e-mail.
  router.delete('/users/:ref', async (req, res) => {
    res.json(await users.deleteAccountsOf(String(req.params.ref), actorOf(res)));
  });

  return router;
}
