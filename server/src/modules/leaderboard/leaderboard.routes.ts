import { findTool, ZLeaderboardQuerySchema } from '@duet/shared';
import type { Leaderboard, RedisKeys } from '@duet/shared';
import { Router } from 'express';
import type { Redis } from 'ioredis';
import { AppError, parseOr400 } from '../../http/errors.ts';

/** `GET /api/leaderboard?tool=`: the ratings the leaderboard job last cached. */
export function leaderboardRoutes(deps: { redis: Redis; keys: RedisKeys }): Router {
  const router = Router();
  router.get('/leaderboard', async (req, res) => {
    const q = parseOr400(ZLeaderboardQuerySchema, req.query);
    let slug: string | null = null;
    if (q.tool) {
      const tool = findTool(q.tool);
      if (!tool) throw new AppError(404, 'unknown_tool', `There is no tool called "${q.tool}"`);
      slug = tool.slug;
    }
    const cached = await deps.redis.get(deps.keys.leaderboard(slug));
    const board: Leaderboard = cached ? (JSON.parse(cached) as Leaderboard) : { tool: slug, models: [], votes: 0, updatedAt: null };
    // Cheap to serve from Redis, and a page refreshing after a vote must see the new ratings.
    res.set('Cache-Control', 'no-cache');
    res.json(board);
  });
  return router;
}
