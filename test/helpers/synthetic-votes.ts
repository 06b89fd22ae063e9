import { TOOLS } from '@duet/contracts';
import type { Comparison } from '@duet/ratings/ratings';
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

/** What else {@link insertSyntheticVotes} stores with the votes. */
export interface SyntheticStoreOptions {
  /**
   * Both answers of each battle with their style and speed (the style-controlled and speed figures
   * read them), a third of the battles in Korean and one in fifty with a picture (the categories).
   * Without: English text battles with no answers, as the ratings alone need.
   */
  answers?: boolean;
  /**
   * Votes' times spread evenly over this many seconds up to now (0: all at the statement's time).
   * Only for a first batch: a vote stored with a time before the refit's last fold is a vote
   * committed late, which the refit does not expect.
   */
  spreadSeconds?: number;
  /**
   * PostgreSQL's setseed() value, in [−1, 1] (default 0.42): batches stored with different seeds
   * draw different votes, with the same seed the same ones.
   */
  seed?: number;
}

/**
 * Stores `votes` counted votes (and their battles) drawn as {@link syntheticVotes} draws them,
 * spread evenly over the tools, in one statement: PostgreSQL's random() after setseed(), so the
 * same count draws the same pairings and verdicts. Answers' lengths grow with the model's index
 * (the weaker, the longer) and voters prefer the longer answer a little, as in the field.
 */
export async function insertSyntheticVotes(client: pg.ClientBase, votes: number, o: SyntheticStoreOptions = {}): Promise<void> {
  await client.query('SELECT setseed($1)', [o.seed ?? 0.42]);
  // Random ids, so calls add to what is there.
  await client.query(
    `WITH d AS MATERIALIZED (
       SELECT gen_random_uuid() AS id, ($2::text[])[1 + g % cardinality($2::text[])] AS tool, i,
              CASE WHEN j0 >= i THEN j0 + 1 ELSE j0 END AS j, u, w,
              CASE WHEN $4 AND g % 3 = 0 THEN 'ko' ELSE 'en' END AS lang, $4 AND g % 50 = 0 AS has_image,
              now() - make_interval(secs => $5::float8 * ($1 - g) / $1) AS at,
              -- Lengths from a hash of the row, not random(): the votes drawn are the same with or without answers.
              200 + 40 * i + abs(hashint4(g)) % 800 AS len_a,
              200 + 40 * CASE WHEN j0 >= i THEN j0 + 1 ELSE j0 END + abs(hashint4(-g)) % 800 AS len_b
         FROM (SELECT g, floor(random() * $3)::int AS i, floor(random() * ($3 - 1))::int AS j0, random() AS u, random() AS w
                 FROM generate_series(1, $1::int) g) s
     ), battles_in AS (
       INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation, has_image, created_at)
       SELECT id, tool, lang, 'benchmark', 'bench-m' || lpad(i::text, 2, '0'), 'Bench ' || i, 'other',
              'bench-m' || lpad(j::text, 2, '0'), 'Bench ' || j, 'other', 'blind', '\\x00'::bytea, 'finished', 'ok', has_image, at
         FROM d
     ), answers_in AS (
       INSERT INTO answers (battle_id, side, model, text, finish_reason, output_tokens, ttft_ms, duration_ms,
                            style_length, style_headers, style_list_items, style_bold, style_code_blocks)
       SELECT id, side, 'bench-m' || lpad(m::text, 2, '0'), '', 'stop', len / 4, 300 + 20 * m, 300 + 20 * m + len * 10, len,
              len / 700, len / 150, len / 400, 0
         FROM d CROSS JOIN LATERAL (VALUES ('a', i, len_a), ('b', j, len_b)) AS s(side, m, len)
        WHERE $4
     )
     INSERT INTO votes (battle_id, tool, winner, created_at)
     SELECT id, tool, CASE WHEN u < 0.1 THEN 'tie' WHEN u < 0.15 THEN 'both_bad'
                           WHEN w < 1 / (1 + power(10, (i - j)::float8 / ($3 - 1) - CASE WHEN $4 THEN 0.3 * (len_a - len_b)::float8 / (len_a + len_b) ELSE 0 END)) THEN 'a' ELSE 'b' END,
            at
       FROM d`,
    [votes, TOOLS.map((t) => t.slug), MODELS, o.answers ?? false, o.spreadSeconds ?? 0],
  );
  await client.query('ANALYZE battles; ANALYZE votes; ANALYZE answers');
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
