import { findTool, ZLeaderboardQuerySchema } from '@duet/shared';
import { Router } from 'express';
import { AppError, parseOr400 } from '../../http/errors.ts';
import type { LeaderboardService } from './leaderboard.service.ts';

/** `GET /api/leaderboard?tool=`: the ratings the leaderboard job last computed. */
export function leaderboardRoutes(service: LeaderboardService): Router {
  const router = Router();
  router.get('/leaderboard', async (req, res) => {
    const q = parseOr400(ZLeaderboardQuerySchema, req.query);
    const tool = q.tool ? findTool(q.tool) : null;
    if (tool === undefined) throw new AppError(404, 'unknown_tool', `There is no tool called "${q.tool}"`);
    // Cheap to serve from Redis, and a page refreshing after a vote must see the new ratings.
    res.set('Cache-Control', 'no-cache');
    res.json(await service.read(tool?.slug ?? null));
  });
  return router;
}
