import { Readable } from 'node:stream';
import type { Db } from '../../infra/db.ts';

/** One counted battle as the open data set has it: no account, no IP, nothing personal. */
export interface ExportRow {
  battle_id: string;
  tool: string;
  lang: string;
  model_a: string;
  model_b: string;
  winner: string;
  /** The vote's reasons (`VOTE_REASONS`), none when not given. */
  reasons: string[];
  question: string;
  inputs: unknown;
  answer_a: string;
  answer_b: string;
  finish_a: string;
  finish_b: string;
  asked_at: Date;
  voted_at: Date;
  /** The follow-up turns, in order (none for a battle of one question). */
  follow_ups: FollowUpRow[];
  /** The vote's place among the counted votes on its question in its tool (`votes.prompt_rank`); null when its question is never capped. */
  prompt_rank: number | null;
  /**
   * Over the prompt cap the boards were last computed with (DEDUP_MAX_PER_PROMPT, a worker setting,
   * as `leaderboard_fold` records it): the de-duplicated boards leave it out.
   */
  over_prompt_cap: boolean;
}

/** A follow-up turn in the open data set: its question and both answers. */
export interface FollowUpRow {
  turn: number;
  question: string;
  answer_a: string;
  answer_b: string;
  finish_a: string;
  finish_b: string;
}

const SELECT = `
  SELECT b.id AS battle_id, b.tool, b.lang, b.model_a, b.model_b, v.winner, v.reasons, b.text AS question, b.inputs,
         v.prompt_rank, coalesce(v.prompt_rank > (SELECT nullif(f.prompt_cap, 0) FROM leaderboard_fold f), false) AS over_prompt_cap,
         aa.text AS answer_a, ab.text AS answer_b, aa.finish_reason AS finish_a, ab.finish_reason AS finish_b,
         b.created_at AS asked_at, v.created_at AS voted_at, v.created_at::text AS page_key,
         CASE WHEN b.turns > 1 THEN
           (SELECT json_agg(json_build_object('turn', t.turn, 'question', t.text, 'answer_a', ta.text, 'answer_b', tb.text,
                                              'finish_a', ta.finish_reason, 'finish_b', tb.finish_reason) ORDER BY t.turn)
              FROM battles t
              JOIN answers ta ON ta.battle_id = t.id AND ta.side = 'a'
              JOIN answers tb ON tb.battle_id = t.id AND tb.side = 'b'
             WHERE t.root_id = b.id)
         ELSE '[]'::json END AS follow_ups
    FROM votes v
    JOIN battles b ON b.id = v.battle_id
    JOIN answers aa ON aa.battle_id = b.id AND aa.side = 'a'
    JOIN answers ab ON ab.battle_id = b.id AND ab.side = 'b'
   WHERE v.counted AND b.moderation = 'ok'
     AND (b.turns = 1 OR NOT EXISTS (SELECT 1 FROM battles t WHERE t.root_id = b.id AND t.moderation <> 'ok'))`;
const FIRST_PAGE = `${SELECT} ORDER BY v.created_at, v.battle_id LIMIT $1`;
// The vote's time as PostgreSQL's text, to the microsecond: a JavaScript Date keeps milliseconds,
// and a page that started after a rounded time would repeat the votes of that millisecond.
const NEXT_PAGE = `${SELECT} AND (v.created_at, v.battle_id) > ($2::timestamptz, $3::uuid) ORDER BY v.created_at, v.battle_id LIMIT $1`;

/**
 * Streams counted battles that passed moderation (`ok`), oldest vote first, a page at a time, each
 * page one short query that follows the counted votes' index (`votes_counted_idx`) from where the
 * last one ended. The first rows come at once however many votes are stored (one statement
 * ordering the whole join sorts all of it before its first row, longer as votes grow), and a
 * download holds no database connection between pages, so a slow reader holds none at all. Each
 * page is bounded by the pool's query timeout. Votes counted while a download runs appear in it
 * if they come after where it has got to.
 */
export function streamCountedBattles(db: Db, pageSize = 500): Readable {
  async function* rows(): AsyncGenerator<ExportRow> {
    let after: { key: string; battleId: string } | null = null;
    for (;;) {
      const page: { rows: (ExportRow & { page_key: string })[] } = after
        ? await db.query(NEXT_PAGE, [pageSize, after.key, after.battleId])
        : await db.query(FIRST_PAGE, [pageSize]);
      for (const { page_key: _key, ...row } of page.rows) yield row;
      const last = page.rows.at(-1);
      if (!last || page.rows.length < pageSize) return;
      after = { key: last.page_key, battleId: last.battle_id };
    }
  }
  return Readable.from(rows(), { objectMode: true, highWaterMark: pageSize });
}
