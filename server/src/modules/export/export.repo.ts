import type { PoolClient } from 'pg';
import QueryStream from 'pg-query-stream';
import type { Readable } from 'node:stream';

/** One counted battle as the open data set has it: no account, no IP, nothing personal. */
export interface ExportRow {
  battle_id: string;
  tool: string;
  lang: string;
  model_a: string;
  model_b: string;
  winner: string;
  question: string;
  inputs: unknown;
  answer_a: string;
  answer_b: string;
  finish_a: string;
  finish_b: string;
  asked_at: Date;
  voted_at: Date;
}

/**
 * Streams counted battles that passed moderation (`ok`), oldest vote first, through a server-side
 * cursor: rows arrive in batches, so a million of them never sit in memory at once.
 */
export function streamCountedBattles(client: PoolClient, batchSize = 500): Readable {
  const query = new QueryStream(
    `SELECT b.id AS battle_id, b.tool, b.lang, b.model_a, b.model_b, v.winner, b.text AS question, b.inputs,
            aa.text AS answer_a, ab.text AS answer_b, aa.finish_reason AS finish_a, ab.finish_reason AS finish_b,
            b.created_at AS asked_at, v.created_at AS voted_at
       FROM votes v
       JOIN battles b ON b.id = v.battle_id
       JOIN answers aa ON aa.battle_id = b.id AND aa.side = 'a'
       JOIN answers ab ON ab.battle_id = b.id AND ab.side = 'b'
      WHERE v.counted AND b.moderation = 'ok'
      ORDER BY v.created_at, v.battle_id`,
    [],
    { batchSize, highWaterMark: batchSize },
  );
  return client.query(query);
}
