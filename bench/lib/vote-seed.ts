import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TOOLS } from '@duet/contracts';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import type pg from 'pg';

/**
 * The votes benchmark's data, generated in PostgreSQL with `generate_series`: `stored` battles
 * with both answers and a counted vote, spread over the 13 tools and the last 60 days (1 in 50
 * flagged by moderation, 1 in 20 votes uncounted, 20,000 voters), the counters they add up to,
 * and `fresh` finished battles without a vote (over the 13 tools, or over `freshTools`), each with a
 * vote token the load process can derive from its number (`freshBattle`).
 */
export async function seedVotes(
  client: pg.Client,
  opts: { stored: number; fresh: number; freshTools?: readonly string[]; onStep?: (step: string, ms: number) => void },
): Promise<void> {
  const [a, b] = DEMO_ROSTER;
  if (!a || !b) throw new Error('the demo roster has fewer than two models');
  const models = [TOOLS.map((t) => t.slug), a.id, a.label, a.family, b.id, b.label, b.family];
  // The rows are consistent by construction: skip the foreign-key triggers (a lookup and a row
  // lock on the battle for every answer and vote), and do not wait for each commit's flush.
  await client.query("SET session_replication_role = replica; SET synchronous_commit = off; SET maintenance_work_mem = '256MB'");
  const step = async (name: string, sql: string, values: unknown[]) => {
    const t0 = performance.now();
    await client.query(sql, values);
    opts.onStep?.(name, performance.now() - t0);
  };
  // $1 the tools, $2–$7 the two models, $8 how many. Sides alternate: each model is side a half the time.
  const battlesSql = (prefix: string, createdAt: string, moderation: string, tokenHash: string) => `
    INSERT INTO battles (id, tool, lang, text, inputs, model_a, label_a, family_a, model_b, label_b, family_b, mode,
                         vote_token_hash, status, created_at, finished_at, moderation, moderated_at, moderated_by)
    SELECT ${uuidSql(prefix)}, ($1::text[])[1 + i % cardinality($1::text[])], 'en',
           'Question number ' || i || ': what should I read next about the sea?', '{}'::jsonb,
           CASE WHEN i % 2 = 0 THEN $2 ELSE $5 END, CASE WHEN i % 2 = 0 THEN $3 ELSE $6 END, CASE WHEN i % 2 = 0 THEN $4 ELSE $7 END,
           CASE WHEN i % 2 = 0 THEN $5 ELSE $2 END, CASE WHEN i % 2 = 0 THEN $6 ELSE $3 END, CASE WHEN i % 2 = 0 THEN $7 ELSE $4 END,
           'blind', ${tokenHash}, 'finished', ${createdAt}, ${createdAt} + interval '8 seconds',
           ${moderation}, ${createdAt} + interval '9 seconds', 'wordlist'
      FROM generate_series(1, $8::int) AS i`;
  // Whether an answer names a model, as the worker stores it; a checkout from before the flag has no column for it.
  const { rowCount: flagged } = await client.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'answers' AND column_name = 'names_model'");
  const answersSql = (prefix: string) => `
    INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, created_at${flagged ? ', names_model' : ''})
    SELECT b.id, s.side, CASE s.side WHEN 'a' THEN b.model_a ELSE b.model_b END, ($1::text[])[1 + (hashtext(b.id::text || s.side) & (cardinality($1::text[]) - 1))], 'stop',
           120, 180, 400 + (hashtext(b.id::text || s.side) & 511), 5000 + (hashtext(s.side || b.id::text) & 4095), b.finished_at${flagged ? ', false' : ''}
      FROM generate_series(1, $2::int) AS i
      JOIN battles b ON b.id = ${uuidSql(prefix)}
     CROSS JOIN (VALUES ('a'), ('b')) AS s(side)`;
  const storedAt = `(now() - interval '60 days' + i * (interval '60 days' / $8::int))`;

  await step('stored battles', battlesSql('stored-', storedAt, `CASE WHEN i % 50 = 0 THEN 'flagged' ELSE 'ok' END`, `'\\x00'::bytea`), [
    ...models,
    opts.stored,
  ]);
  const texts = answerTexts();
  await step('stored answers', answersSql('stored-'), [texts, opts.stored]);
  await step(
    'stored votes',
    `INSERT INTO votes (battle_id, tool, winner, created_at, counted, uncounted_reason, voter_key)
     SELECT ${uuidSql('stored-')}, ($1::text[])[1 + i % cardinality($1::text[])],
            (ARRAY['a', 'b', 'a', 'b', 'tie', 'both_bad'])[1 + (hashtext('w' || i) & 2147483647) % 6],
            now() - interval '60 days' + i * (interval '60 days' / $2::int) + interval '30 seconds',
            i % 20 <> 0, CASE WHEN i % 20 = 0 THEN 'model_named' END, 'ip:' || md5('voter-' || (i % 20000))
       FROM generate_series(1, $2::int) AS i`,
    [TOOLS.map((t) => t.slug), opts.stored],
  );
  await step(
    'counters',
    `INSERT INTO model_stats (tool, model, label, family, battles, wins, losses, ties, both_bad)
     SELECT v.tool, s.model, s.label, s.family, count(*),
            count(*) FILTER (WHERE v.winner = s.side), count(*) FILTER (WHERE v.winner IN ('a', 'b') AND v.winner <> s.side),
            count(*) FILTER (WHERE v.winner = 'tie'), count(*) FILTER (WHERE v.winner = 'both_bad')
       FROM votes v JOIN battles b ON b.id = v.battle_id
      CROSS JOIN LATERAL (VALUES ('a', b.model_a, b.label_a, b.family_a), ('b', b.model_b, b.label_b, b.family_b)) AS s(side, model, label, family)
      WHERE v.counted
      GROUP BY v.tool, s.model, s.label, s.family`,
    [],
  );
  await step('fresh battles', battlesSql('fresh-', `now() - interval '1 minute'`, `'ok'`, `sha256(convert_to('${FRESH_TOKEN_PREFIX}' || i, 'UTF8'))`), [
    opts.freshTools ?? models[0],
    ...models.slice(1),
    opts.fresh,
  ]);
  await step('fresh answers', answersSql('fresh-'), [texts, opts.fresh]);
  const t0 = performance.now();
  await client.query('RESET session_replication_role; RESET synchronous_commit');
  await client.query('VACUUM ANALYZE battles, answers, votes, model_stats');
  opts.onStep?.('vacuum analyze', performance.now() - t0);
}

/**
 * 1,024 answers of about 600 characters of English prose, each a different passage of Duet's own
 * documentation, none naming a model: the history pages the benchmark reads hold text that
 * compresses as answers do, not one sentence over and over (which compresses to nothing).
 */
function answerTexts(): string[] {
  const prose = ['README.md', 'docs/operations.md', 'docs/reliability.md']
    .map((f) => readFileSync(fileURLToPath(new URL(`../../${f}`, import.meta.url)), 'utf8'))
    .join(' ')
    .replace(/[`*#|>_[\]()-]+/g, ' ')
    .replace(/\s+/g, ' ');
  const texts: string[] = [];
  for (let i = 0, at = 0; i < prose.length && texts.length < 1024; i++, at = (at + 7_919) % (prose.length - 700)) {
    const text = prose.slice(at, at + 600);
    if (!/gpt|claude|openai|anthropic|gemini|llama/i.test(text)) texts.push(text);
  }
  if (texts.length < 1024) throw new Error(`only ${texts.length} passages of the documentation name no model`);
  return texts;
}

const FRESH_TOKEN_PREFIX = 'bench-vote-token-';

/** The uuid (version 4, as the API checks) of battle `prefix` + i, in SQL over `i`… */
const uuidSql = (prefix: string) => `overlay(overlay(md5('${prefix}' || i) placing '4' from 13 for 1) placing '8' from 17 for 1)::uuid`;

/** …and the same in TypeScript. */
function benchUuid(prefix: string, i: number): string {
  const h = createHash('md5').update(`${prefix}${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
}

/** The id and vote token of fresh battle `i` (1-based), as `seedVotes` stored them. */
export const freshBattle = (i: number): { id: string; voteToken: string } => ({ id: benchUuid('fresh-', i), voteToken: `${FRESH_TOKEN_PREFIX}${i}` });

/** The id of stored battle `i` (1-based). */
export const storedBattleId = (i: number): string => benchUuid('stored-', i);
