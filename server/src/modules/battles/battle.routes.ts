import { CHALLENGE_HEADER, ZCancelRequestSchema, ZCreateBattleRequestSchema, ZFollowUpRequestSchema, ZVoteReasonsRequestSchema, ZVoteRequestSchema } from '@duet/contracts';
import { Router } from 'express';
import type { RequestHandler } from 'express';
import { sessionUserId } from '../../http/auth.ts';
import { deviceIdOf } from '../../http/device-cookie.ts';
import { battleIdParam } from '../../http/battle-id.ts';
import { AppError, parseOr400 } from '../../http/errors.ts';
import { multipartBody, sniffImage } from '../../http/image-upload.ts';
import type { BattleService, UploadedImage } from './battle.service.ts';

/** A multipart form carries `inputs` and `models` as JSON text; a JSON body carries them as they are. */
function requestBody(body: Record<string, unknown>, multipart: boolean): unknown {
  if (!multipart) return body;
  const parsed = { ...body };
  for (const field of ['inputs', 'models'] as const) {
    const text = body[field];
    if (typeof text !== 'string') continue;
    try {
      parsed[field] = JSON.parse(text) as unknown;
    } catch {
      throw new AppError(400, 'validation_failed', `${field}: not valid JSON`);
    }
  }
  return parsed;
}

const battleId = (raw: unknown): string => battleIdParam(raw);

/**
 * `session` is the optional sign-in: battles and votes made with a session token are stored as
 * that user's. It runs after the multipart body is read, so a refused upload still gets its answer.
 */
export function battleRoutes(
  service: BattleService,
  limits: { create: RequestHandler; cancel: RequestHandler },
  session: RequestHandler,
  device: RequestHandler,
): Router {
  const router = Router();

  router.post('/battles', limits.create, multipartBody, session, device, async (req, res) => {
    const multipart = Boolean(req.is('multipart/form-data'));
    const body = parseOr400(ZCreateBattleRequestSchema, requestBody((req.body ?? {}) as Record<string, unknown>, multipart));
    let image: UploadedImage | undefined;
    if (req.file) image = { mimeType: await sniffImage(req.file.buffer), data: req.file.buffer };
    const created = await service.create(body, image, {
      userId: sessionUserId(res),
      ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      deviceId: deviceIdOf(res),
      challenge: req.get(CHALLENGE_HEADER),
    });
    res.status(202).json(created);
  });

  // A follow-up is a question like the first: the same per-minute limit, quota and budgets.
  router.post('/battles/:id/turns', limits.create, multipartBody, session, device, async (req, res) => {
    const id = battleId(req.params.id);
    const body = parseOr400(ZFollowUpRequestSchema, req.body ?? {});
    let image: UploadedImage | undefined;
    if (req.file) image = { mimeType: await sniffImage(req.file.buffer), data: req.file.buffer };
    const asked = await service.followUp(id, body, image, { userId: sessionUserId(res), ip: req.ip ?? req.socket.remoteAddress ?? 'unknown', deviceId: deviceIdOf(res) });
    res.status(202).json(asked);
  });

  router.post('/battles/:id/cancel', limits.cancel, async (req, res) => {
    const id = battleId(req.params.id);
    const { voteToken } = parseOr400(ZCancelRequestSchema, req.body);
    await service.cancel(id, voteToken);
    res.status(202).json({ cancelled: true });
  });

  router.get('/battles/:id/image', async (req, res) => {
    const image = await service.image(battleId(req.params.id));
    if (!image) throw new AppError(404, 'not_found', 'This battle has no image');
    res.set('Content-Type', image.mimeType);
    res.set('Cache-Control', 'public, max-age=31536000, immutable');
    res.set('X-Content-Type-Options', 'nosniff');
    res.send(image.data);
  });

  return router;
}

/**
 * The vote, the call a campaign makes most: the app mounts it ahead of the other API routers and
 * of the compression middleware (a vote's answer is a few hundred bytes), so a vote is not walked
 * past every other route first. `json` is the API's body parser, run first as on the API's other
 * routes (a malformed body is a 400 before the rate limit counts it).
 */
export function voteRoutes(service: BattleService, limit: RequestHandler, json: RequestHandler, session: RequestHandler): Router {
  const router = Router();
  router.post('/battles/:id/vote', json, limit, session, async (req, res) => {
    const id = battleId(req.params.id);
    const body = parseOr400(ZVoteRequestSchema, req.body);
    res.json(await service.vote(id, body, { userId: sessionUserId(res), ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' }));
  });
  // Reasons added just after the vote, by the vote token's holder; counted in the votes' limit.
  router.post('/battles/:id/reasons', json, limit, async (req, res) => {
    const id = battleId(req.params.id);
    res.json(await service.addReasons(id, parseOr400(ZVoteReasonsRequestSchema, req.body)));
  });
  return router;
}
