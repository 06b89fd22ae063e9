import type { ModerationQueuePage, ModerationQueueQuery } from '@duet/contracts';
import { z } from 'zod';
import { decodeCursor, encodeCursor, isUtcMicros } from '../../http/page-cursor.ts';
import type { Db } from '../../infra/db.ts';
import { findImage, listQueue } from './moderation-queue.repo.ts';

export type ModerationQueueService = ReturnType<typeof createModerationQueueService>;

/** A queue cursor's key: the last battle's creation time and id, as the queue's query printed them. */
const ZQueueKeySchema = z.tuple([z.string().refine(isUtcMicros), z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)]);

/**
 * The operators' moderation queue: the battles moderation flagged, the ones it has not decided
 * yet, and the ones operators took down, each as stored (not masked: an operator judges what was
 * asked and answered), with what decided it and why. Decisions on them are `admin.service.ts`'s.
 */
export function createModerationQueueService(deps: { db: Db }) {
  return {
    /** One page of one state's battles, newest first. */
    async page(query: ModerationQueueQuery): Promise<ModerationQueuePage> {
      // Refused (400) before anything is read.
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor, ZQueueKeySchema);
      const page = await listQueue(deps.db, query.state, query.limit, after && { createdAt: after[0], id: after[1] });
      return { state: query.state, battles: page.items, nextCursor: page.next && encodeCursor([page.next.createdAt, page.next.id]) };
    },
    /** A battle's image, whatever its moderation (`findImage`). */
    image: (battleId: string) => findImage(deps.db, battleId),
  };
}
