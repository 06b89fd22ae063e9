import { Router } from 'express';
import type { DuetBus } from '../../events/duet-events.ts';
import { AppError } from '../../http/errors.ts';
import type { ChallengeService } from './challenge.service.ts';

/** `GET /api/challenge`: a new challenge to solve before asking (404 while challenges are off: `on` says). */
export function challengeRoutes(service: Pick<ChallengeService, 'issue'> | null, on: () => boolean): Router {
  const router = Router();
  router.get('/challenge', async (_req, res) => {
    if (!service || !on()) throw new AppError(404, 'not_found', 'Challenges are off on this server (BOT_CHALLENGE=off): battles need none.');
    res.set('Cache-Control', 'no-store').json(await service.issue());
  });
  return router;
}

/** Counts every battle toward the rate that makes challenges harder; never fails a battle. */
export function countBattles(events: DuetBus, service: Pick<ChallengeService, 'countBattle'>): void {
  events.on('battle.created', () => {
    service.countBattle().catch(() => undefined);
  });
}
