import type { AnswerStats, BattleInputs, HistoryEntry, Side, Winner } from '@duet/contracts';
import type { Db } from '../../infra/db.ts';
import { sidesOf } from '../../infra/battle-sides.ts';
import type { RawSides } from '../../infra/battle-sides.ts';

/** Position in the newest-first list: the vote's exact time (as PostgreSQL prints it) and battle id. */
export interface HistoryCursor {
  votedAt: string;
  id: string;
}

interface RawEntry extends RawSides {
  id: string;
  tool: string;
  text: string;
  inputs: BattleInputs;
  has_image: boolean;
  created_at: Date;
  voted_at: Date;
  voted_at_exact: string;
  winner: Winner;
  answers: Array<{
    side: Side;
    text: string;
    finish_reason: AnswerStats['finishReason'];
    input_tokens: number | null;
    output_tokens: number | null;
    ttft_ms: number | null;
    duration_ms: number;
  }>;
  /** The follow-up turns, in order; null for a battle of one question. */
  follow_ups: Array<{ turn: number; id: string; text: string; has_image: boolean; answers: RawEntry['answers'] | null }> | null;
}

const ENTRY_COLUMNS = `
  b.id, b.tool, b.text, b.inputs, b.has_image, b.created_at,
  v.created_at AS voted_at, to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS voted_at_exact, v.winner,
  b.model_a, b.label_a, b.family_a, b.model_b, b.label_b, b.family_b,
  (SELECT json_agg(json_build_object(
            'side', a.side, 'text', a.text, 'finish_reason', a.finish_reason,
            'input_tokens', a.input_tokens, 'output_tokens', a.output_tokens,
            'ttft_ms', a.ttft_ms, 'duration_ms', a.duration_ms))
     FROM answers a WHERE a.battle_id = b.id) AS answers,
  CASE WHEN b.turns > 1 THEN
    (SELECT json_agg(json_build_object('turn', t.turn, 'id', t.id, 'text', t.text, 'has_image', t.has_image,
              'answers', (SELECT json_agg(json_build_object(
                            'side', a.side, 'text', a.text, 'finish_reason', a.finish_reason,
                            'input_tokens', a.input_tokens, 'output_tokens', a.output_tokens,
                            'ttft_ms', a.ttft_ms, 'duration_ms', a.duration_ms))
                            FROM answers a WHERE a.battle_id = t.id)) ORDER BY t.turn)
       FROM battles t WHERE t.root_id = b.id)
  END AS follow_ups`;

/**
 * A battle is public once moderation passed it, and every one of its follow-ups: one turn pending,
 * flagged or taken down keeps the whole conversation out of sight.
 */
const PUBLIC = `b.moderation = 'ok' AND (b.turns = 1 OR NOT EXISTS (SELECT 1 FROM battles t WHERE t.root_id = b.id AND t.moderation <> 'ok'))`;

/**
 * Which voted battles a list holds: all of them, only those named from the start (the visitor chose
 * the models: `votes_named_idx` walks them), or all but those.
 */
export type VotesListed = 'all' | 'named' | 'not_named';
const LISTED: Record<VotesListed, string> = {
  all: '',
  named: " AND v.uncounted_reason = 'named_mode'",
  not_named: " AND v.uncounted_reason IS DISTINCT FROM 'named_mode'",
};

/**
 * The statement of a page: the first one, or one after a cursor. Each is prepared once per
 * connection and keeps one plan, with no planning per request: a plan that walks
 * `votes_tool_created_idx` from the top or from the cursor and stops after `rows`. The row count
 * is written into the text (a checked integer, one statement per page size) because a generic
 * plan with `LIMIT $n` assumes a tenth of the tool's votes and sends parallel workers after them.
 */
function pageStatement(rows: number, after: boolean, which: VotesListed): { name: string; text: string } {
  if (!Number.isInteger(rows) || rows < 1 || rows > 1_000) throw new RangeError(`page size ${rows}`);
  return {
    name: `history-${which}-${after ? 'later' : 'first'}-page-${rows}`,
    text: `SELECT ${ENTRY_COLUMNS}
             FROM votes v JOIN battles b ON b.id = v.battle_id
            WHERE v.tool = $1 AND ${PUBLIC}${LISTED[which]}${after ? ' AND (v.created_at, v.battle_id) < ($2::timestamptz, $3::uuid)' : ''}
            ORDER BY v.created_at DESC, v.battle_id DESC
            LIMIT ${rows}`,
  };
}

/**
 * One page of voted battles of a tool, newest vote first, plus the cursor of the next page. Only
 * battles moderation passed (`ok`): pending, flagged and taken-down ones are never listed.
 */
export async function listVotedBattles(
  db: Db,
  tool: string,
  limit: number,
  cursor: HistoryCursor | null,
  which: VotesListed = 'all',
): Promise<{ entries: HistoryEntry[]; next: HistoryCursor | null }> {
  const { rows } = await db.query<RawEntry>({
    ...pageStatement(limit + 1, cursor !== null, which),
    values: cursor ? [tool, cursor.votedAt, cursor.id] : [tool],
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    next: rows.length > limit && last ? { votedAt: last.voted_at_exact, id: last.id } : null,
  };
}

/**
 * One voted battle that moderation passed (`ok`), as its history entry, or null: never one still
 * running, unvoted, pending, flagged or taken down.
 */
export async function findVotedBattle(db: Db, id: string): Promise<HistoryEntry | null> {
  const { rows } = await db.query<RawEntry>({
    name: 'history-voted-battle',
    text: `SELECT ${ENTRY_COLUMNS}
             FROM votes v JOIN battles b ON b.id = v.battle_id
            WHERE v.battle_id = $1 AND ${PUBLIC}`,
    values: [id],
  });
  const row = rows[0];
  return row ? toEntry(row) : null;
}

/** One side's stored answer of a turn (an empty failed one when none is stored). */
function answerOf(answers: RawEntry['answers'] | null, side: Side): { text: string; stats: AnswerStats } {
  const a = answers?.find((x) => x.side === side);
  return {
    text: a?.text ?? '',
    stats: {
      finishReason: a?.finish_reason ?? 'error',
      inputTokens: a?.input_tokens ?? null,
      outputTokens: a?.output_tokens ?? null,
      ttftMs: a?.ttft_ms ?? null,
      durationMs: a?.duration_ms ?? 0,
    },
  };
}

function toEntry(r: RawEntry): HistoryEntry {
  const sides = sidesOf(r);
  const answer = (side: Side) => ({ ...sides[side], ...answerOf(r.answers, side) });
  const followUps = r.follow_ups?.map((t) => ({
    turn: t.turn,
    text: t.text,
    imageUrl: t.has_image ? `/api/battles/${t.id}/image` : null,
    sides: { a: answerOf(t.answers, 'a'), b: answerOf(t.answers, 'b') },
  }));
  return {
    ...(followUps?.length ? { followUps } : {}),
    id: r.id,
    tool: r.tool,
    createdAt: r.created_at.toISOString(),
    votedAt: r.voted_at.toISOString(),
    question: { text: r.text, inputs: r.inputs, imageUrl: r.has_image ? `/api/battles/${r.id}/image` : null },
    winner: r.winner,
    sides: { a: answer('a'), b: answer('b') },
  };
}
