import { findTool, ZLeaderboardHistoryQuerySchema, ZLeaderboardQuerySchema } from '@duet/contracts';
import type { BoardId, LeaderboardQuery } from '@duet/contracts';
import { Router } from 'express';
import type { RequestHandler } from 'express';
import { sessionUserId } from '../../http/auth.ts';
import { AppError, parseOr400 } from '../../http/errors.ts';
import type { LeaderboardService } from './leaderboard.service.ts';

/** The board a query names; an unknown tool is a 404. */
function boardOf(q: LeaderboardQuery): BoardId {
  const tool = q.tool ? findTool(q.tool) : null;
  if (tool === undefined) throw new AppError(404, 'unknown_tool', `There is no tool called "${q.tool}"`);
  return { tool: tool?.slug ?? null, category: q.category ?? null, control: q.control ?? 'none' };
}

/**
 * `GET /api/leaderboard?tool=|category=&control=&intervals=&dedup=`: the ratings the leaderboard job last computed;
 * `GET /api/leaderboard/history` (same query, and `days`): the board's daily snapshots;
 * `GET /api/leaderboard/mine`: the signed-in visitor's own board (`session`: `optionalSession`), 401 anonymous.
 */
export function leaderboardRoutes(service: LeaderboardService, session: RequestHandler): Router {
  const router = Router();
  router.get('/leaderboard', async (req, res) => {
    const q = parseOr400(ZLeaderboardQuerySchema, req.query);
    // Cheap to serve from Redis, and a page refreshing after a vote must see the new ratings.
    res.set('Cache-Control', 'no-cache');
    res.json(await service.read(boardOf(q), q.intervals, q.dedup));
  });
  router.get('/leaderboard/history', async (req, res) => {
    const q = parseOr400(ZLeaderboardHistoryQuerySchema, req.query);
    res.set('Cache-Control', 'no-cache');
    res.json(await service.history(boardOf(q), q.days));
  });
  router.get('/leaderboard/mine', session, async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    const userId = sessionUserId(res);
    if (userId === undefined) throw new AppError(401, 'unauthorized', 'Sign in to see your own board.');
    res.json(await service.ownBoard(userId));
  });
  return router;
}
