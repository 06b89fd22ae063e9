import type { BattleInputs, FinishReason, Language, ModerationQueueItem, Side } from '@duet/contracts';
import { sidesOf } from '../../infra/battle-sides.ts';
import type { RawSides } from '../../infra/battle-sides.ts';
import type { Db } from '../../infra/db.ts';
import { utcMicrosSql } from '../../http/page-cursor.ts';

export type QueueState = ModerationQueueItem['moderation']['state'];

/** Position in a state's newest-first list: the battle's creation time (`isUtcMicros`) and id. */
export interface QueueCursor {
  createdAt: string;
  id: string;
}

interface RawQueueRow extends RawSides {
  id: string;
  tool: string;
  lang: Language;
  status: ModerationQueueItem['status'];
  text: string;
  inputs: BattleInputs;
  has_image: boolean;
  created_at: Date;
  created_at_exact: string;
  moderation: QueueState;
  moderation_categories: string[];
  moderated_by: string | null;
  moderated_at: Date | null;
  moderation_reason: string | null;
  answers: Array<{ side: Side; text: string; finish_reason: FinishReason; error_code: string | null }> | null;
}

const QUEUE_COLUMNS = `
  b.id, b.tool, b.lang, b.status, b.text, b.inputs, b.has_image, b.created_at, ${utcMicrosSql('b.created_at')} AS created_at_exact,
  b.model_a, b.label_a, b.family_a, b.model_b, b.label_b, b.family_b,
  b.moderation, b.moderation_categories, b.moderated_by, b.moderated_at, b.moderation_reason,
  (SELECT json_agg(json_build_object('side', a.side, 'text', a.text, 'finish_reason', a.finish_reason, 'error_code', a.error_code))
     FROM answers a WHERE a.battle_id = b.id) AS answers`;

/**
 * One page of the battles in `state`, newest first, plus the cursor of the next page. `state` is
 * never `ok` nor `erased` (the queue's states), so an erased battle is never listed.
 */
export async function listQueue(
  db: Db,
  state: QueueState,
  limit: number,
  after: QueueCursor | null,
): Promise<{ items: ModerationQueueItem[]; next: QueueCursor | null }> {
  const { rows } = await db.query<RawQueueRow>(
    `SELECT ${QUEUE_COLUMNS}
       FROM battles b
      WHERE b.moderation = $1${after ? ' AND (b.created_at, b.id) < ($3::timestamptz, $4::uuid)' : ''}
      ORDER BY b.created_at DESC, b.id DESC
      LIMIT $2`,
    after ? [state, limit + 1, after.createdAt, after.id] : [state, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    next: rows.length > limit && last ? { createdAt: last.created_at_exact, id: last.id } : null,
  };
}

function toItem(r: RawQueueRow): ModerationQueueItem {
  const sides = sidesOf(r);
  const side = (s: Side) => {
    const answer = r.answers?.find((a) => a.side === s);
    return { ...sides[s], text: answer?.text ?? null, finishReason: answer?.finish_reason ?? null, errorCode: answer?.error_code ?? null };
  };
  return {
    id: r.id,
    tool: r.tool,
    lang: r.lang,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    question: { text: r.text, inputs: r.inputs, hasImage: r.has_image, imageUrl: r.has_image ? `/api/admin/battles/${r.id}/image` : null },
    sides: { a: side('a'), b: side('b') },
    moderation: {
      state: r.moderation,
      categories: r.moderation_categories,
      by: r.moderated_by,
      at: r.moderated_at?.toISOString() ?? null,
      reason: r.moderation_reason,
    },
  };
}

/**
 * A battle's cleaned image whatever its moderation, for operators judging it; null when it has
 * none, or none cleaned yet (`npm run clean-images`), or the battle was erased.
 */
export async function findImage(db: Db, battleId: string): Promise<{ mimeType: string; data: Buffer } | null> {
  const { rows } = await db.query<{ mime_type: string; data: Buffer }>(
    `SELECT i.mime_type, i.data FROM battle_images i JOIN battles b ON b.id = i.battle_id
      WHERE i.battle_id = $1 AND i.cleaned AND b.moderation <> 'erased'`,
    [battleId],
  );
  return rows[0] ? { mimeType: rows[0].mime_type, data: rows[0].data } : null;
}
