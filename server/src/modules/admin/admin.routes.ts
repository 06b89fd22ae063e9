import { Router } from 'express';
import type { UserService } from '../users/user.service.ts';
import type { AdminService } from './admin.service.ts';

/** Operator routes; mount them behind the operators' API guard (`operator-auth.ts`). */
export function adminRoutes(service: AdminService, users: Pick<UserService, 'deleteAccountsOf'>): Router {
  const router = Router();

  router.post('/battles/:id/takedown', async (req, res) => {
    res.json(await service.takeDown(String(req.params.id), 'api'));
  });

  router.post('/battles/:id/restore', async (req, res) => {
    res.json(await service.restore(String(req.params.id), 'api'));
  });

  // A person who cannot sign in any more writes to support: their account, by id, Firebase uid or e-mail.
  router.delete('/users/:ref', async (req, res) => {
    res.json(await users.deleteAccountsOf(String(req.params.ref)));
  });

  return router;
}
