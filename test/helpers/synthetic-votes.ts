import { TOOLS } from '@duet/shared';
import type { Comparison } from '@duet/shared';
import type pg from 'pg';

/**
 * Synthetic votes at campaign scale, for the leaderboard's benchmark and tests: the same law drawn
 * in JavaScript (seeded) or stored straight into PostgreSQL with one INSERT … SELECT generate_series.
 *
 * Models with a known true order: model i is rated 1200 − 400·i/(MODELS − 1).
 */
export const MODELS = 30;
export const modelId = (i: number): string => `bench-m${String(i).padStart(2, '0')}`;
export const TRUE_ORDER = Array.from({ length: MODELS }, (_, i) => modelId(i));

/**
 * Each vote: two different models at random, sides at random; 10 % ties, 5 % both bad, else
 * side a wins with the Bradley-Terry probability 1 / (1 + 10^((r_b − r_a)/400)) = 1 / (1 + 10^((i − j)/29)).
 */
export function syntheticVotes(votes: number, seed: number): Comparison[] {
  const rand = mulberry32(seed);
  const out: Comparison[] = [];
  for (let v = 0; v < votes; v++) {
    const i = Math.floor(rand() * MODELS);
    let j = Math.floor(rand() * (MODELS - 1));
    if (j >= i) j++;
    const u = rand();
    const aWins = rand() < 1 / (1 + 10 ** ((i - j) / (MODELS - 1)));
    out.push({ a: modelId(i), b: modelId(j), winner: u < 0.1 ? 'tie' : u < 0.15 ? 'both_bad' : aWins ? 'a' : 'b' });
  }
  return out;
}

/**
 * Stores `votes` counted votes (and their battles) drawn as {@link syntheticVotes} draws them,
 * spread evenly over the tools, in one statement: PostgreSQL's random() after setseed(), so the
 * same count draws the same pairings and verdicts.
 */
export async function insertSyntheticVotes(client: pg.ClientBase, votes: number): Promise<void> {
  await client.query('SELECT setseed(0.42)');
  // Random ids, so calls add to what is there.
  await client.query(
    `WITH d AS MATERIALIZED (
       SELECT gen_random_uuid() AS id, ($2::text[])[1 + g % cardinality($2::text[])] AS tool, i,
              CASE WHEN j0 >= i THEN j0 + 1 ELSE j0 END AS j, u, w
         FROM (SELECT g, floor(random() * $3)::int AS i, floor(random() * ($3 - 1))::int AS j0, random() AS u, random() AS w
                 FROM generate_series(1, $1::int) g) s
     ), battles_in AS (
       INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation)
       SELECT id, tool, 'en', 'benchmark', 'bench-m' || lpad(i::text, 2, '0'), 'Bench ' || i, 'other',
              'bench-m' || lpad(j::text, 2, '0'), 'Bench ' || j, 'other', 'blind', '\\x00'::bytea, 'finished', 'ok'
         FROM d
     )
     INSERT INTO votes (battle_id, tool, winner)
     SELECT id, tool, CASE WHEN u < 0.1 THEN 'tie' WHEN u < 0.15 THEN 'both_bad'
                           WHEN w < 1 / (1 + power(10, (i - j)::float8 / ($3 - 1))) THEN 'a' ELSE 'b' END
       FROM d`,
    [votes, TOOLS.map((t) => t.slug), MODELS],
  );
  await client.query('ANALYZE battles; ANALYZE votes');
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
