import { ZModerationQueueQuerySchema } from '@duet/contracts';
import { Router } from 'express';
import { z } from 'zod';
import { AppError, parseOr400 } from '../../http/errors.ts';
import type { ModerationQueueService } from './moderation-queue.service.ts';

const ZBattleIdSchema = z.string().uuid();

/** The queue an operator works through, and the images of its battles; mount it behind the operators' API guard. */
export function moderationQueueRoutes(service: ModerationQueueService): Router {
  const router = Router();

  router.get('/moderation', async (req, res) => {
    const query = parseOr400(ZModerationQueueQuerySchema, req.query);
    res.set('Cache-Control', 'no-store').json(await service.page(query));
  });

  // The public image route hides a taken-down battle's image: an operator deciding whether to
  // restore it still needs to see it.
  router.get('/battles/:id/image', async (req, res) => {
    const id = ZBattleIdSchema.safeParse(req.params.id);
    if (!id.success) throw new AppError(400, 'validation_failed', 'id: not a battle id');
    const image = await service.image(id.data);
    if (!image) throw new AppError(404, 'not_found', 'This battle has no image');
    res.set('Content-Type', image.mimeType);
    res.set('Cache-Control', 'private, no-store');
    res.set('X-Content-Type-Options', 'nosniff');
    res.send(image.data);
  });

  return router;
}
