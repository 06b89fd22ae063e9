import { randomUUID } from 'node:crypto';
import type { ModelFamily, VoteResponse, Winner } from '@duet/contracts';
import type pg from 'pg';
import { promptHashOf } from '../../server/src/modules/battles/prompt-hash.ts';
import { hashVoteToken, newVoteToken } from '../../server/src/modules/battles/vote-token.ts';
import type { Call } from './accounts.ts';
import { call } from './accounts.ts';

export interface BattleModel {
  id: string;
  label: string;
  family: ModelFamily;
}

export interface StoredBattle {
  id: string;
  voteToken: string;
}

/**
 * A battle finished and checked, written straight to PostgreSQL (no model runs): blind unless the
 * visitor chose the models (`named`), with a side that failed or an answer that gave its model's
 * name away when asked. Its vote goes through HTTP ({@link castVote}), so whether it counts and
 * whose it is are decided as in the field. With `text`, the battle asks it in `tool` (default
 * anything-question) and has its question's key, as a battle the gateway stores; without, it asks a
 * fixed question that is never capped.
 */
export async function storedBattle(
  db: pg.Pool,
  a: BattleModel,
  b: BattleModel,
  o: { mode?: 'blind' | 'named'; failed?: boolean; namesModel?: boolean; text?: string; tool?: string } = {},
): Promise<StoredBattle> {
  const id = randomUUID();
  const voteToken = newVoteToken();
  await db.query(
    `WITH battle AS (
       INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation, prompt_hash)
       VALUES ($1, $12, 'en', $13, $2, $3, $4, $5, $6, $7, $8, $9, 'finished', 'ok', $14)
       RETURNING id
     )
     INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, names_model)
     SELECT battle.id, s.side, s.model, 'A cat.', s.finish, 12, 80, 300, 4000, $11
       FROM battle, (VALUES ('a', $2, 'stop'), ('b', $5, CASE WHEN $10 THEN 'error' ELSE 'stop' END)) AS s(side, model, finish)`,
    [
      id, a.id, a.label, a.family, b.id, b.label, b.family, o.mode ?? 'blind', hashVoteToken(voteToken), o.failed ?? false, o.namesModel ?? false,
      o.tool ?? 'anything-question', o.text ?? 'Which is the better pet?', o.text === undefined ? null : promptHashOf(o.text, false),
    ],
  );
  return { id, voteToken };
}

/** Votes on a stored battle through the API, signed in with `session` when given. */
export const castVote = (baseUrl: string, battle: StoredBattle, winner: Winner, session?: string): Promise<Call<VoteResponse>> =>
  call<VoteResponse>(`${baseUrl}/api/battles/${battle.id}/vote`, { body: { winner, voteToken: battle.voteToken }, token: session });
