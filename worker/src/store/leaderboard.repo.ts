// Over 300 lines on purpose: every statement the refits run (counted votes, the fold into cells, styled votes, speeds, snapshots), one repository for one job.
import type { Language, LeaderboardControl, ModelFamily, ModelSpeed, Winner } from '@duet/contracts';
import { DEFAULT_PROMPT_CAP, overPromptCapSql } from '@duet/platform/prompt-cap';
import type { Db } from '../infra/db.ts';
import { withTransaction } from '../infra/db.ts';
import { answerStyle } from './answer-style.ts';

/** Counted votes of one tool, language, kind of question, number of turns, pairing (sides as shown) and verdict: a cell of the fit. */
export interface CountedRow {
  tool: string;
  lang: Language;
  has_image: boolean;
  /** The battle had a follow-up (more than one turn) before the vote. */
  multi_turn: boolean;
  /** The votes are over the prompt cap (DEDUP_MAX_PER_PROMPT): only the boards without de-duplication count them. Absent: false. */
  over_cap?: boolean;
  model_a: string;
  label_a: string;
  family_a: ModelFamily;
  model_b: string;
  label_b: string;
  family_b: ModelFamily;
  winner: Winner;
  n: number;
}

/** The database's clock: votes created after it are not in what is read next. */
export async function databaseNow(db: Db): Promise<Date> {
  const { rows } = await db.query<{ now: Date }>('SELECT now() AS now');
  return (rows[0] as { now: Date }).now;
}

/**
 * Whether a vote's battle is multi-turn, over `battles b` joined on `votes.battle_id`: a vote is on
 * the first turn's row, whose `turns` counts the conversation's turns (and stops changing at the vote).
 */
const MULTI_TURN = 'b.turns > 1';

/**
 * The counted votes whose time matches `range` (SQL over `v.created_at`), grouped as leaderboard_cells
 * keeps them: with whether they are over the prompt cap `promptCap` (0: none is).
 */
const cellsOfVotes = (range: string, promptCap: number) => `
  SELECT v.tool, b.lang, b.has_image, ${MULTI_TURN} AS multi_turn, ${overPromptCapSql(promptCap)} AS over_cap, b.model_a, b.model_b, v.winner,
         max(b.label_a) AS label_a, max(b.family_a) AS family_a, max(b.label_b) AS label_b, max(b.family_b) AS family_b, count(*)::int AS n
    FROM votes v JOIN battles b ON b.id = v.battle_id
   WHERE v.counted AND ${range}
   GROUP BY v.tool, b.lang, b.has_image, ${MULTI_TURN}, over_cap, b.model_a, b.model_b, v.winner`;

/** Whether a counted vote was created after `since` (ISO): one the boards read at `since` lack. */
export async function countedVotesAfter(db: Db, since: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM votes WHERE counted AND created_at > $1::timestamptz) AS found', [since]);
  return rows[0]?.found === true;
}

/** Aggregated in SQL: one row per tool, language, kind, turns, pairing and outcome, a few thousand for 30 models whatever the votes. */
export async function countedVotes(db: Db, promptCap = DEFAULT_PROMPT_CAP): Promise<CountedRow[]> {
  const { rows } = await db.query<CountedRow>(cellsOfVotes('true', promptCap));
  return rows;
}

/**
 * How old a counted vote must be before the refit folds it into leaderboard_cells. A vote's time is
 * its transaction's start: a vote still committing when the refit reads is not visible yet, and
 * once the watermark has passed its time the frequent fold never looks at it again. Every vote
 * path is one short statement (cast_vote), so one that commits more than this after it started is
 * not expected; votes newer than this are read from the votes on every refit until they are old
 * enough. One that does commit later (a statement stalled behind a lock or a stalled disk) is
 * caught by the style refit, which recounts the cells from the votes (`reconcile`).
 */
export const FOLD_LAG_MS = 10_000;

const CELL_KEY = 'tool, lang, has_image, multi_turn, over_cap, model_a, model_b, winner';

/** What a fold did: the watermark it moved to, and how many stored cells a recount corrected. */
export interface FoldResult {
  through: Date;
  /** Cells whose count (or existence) a recount changed: votes the frequent fold missed. 0 without `reconcile`. */
  corrected: number;
}

/**
 * Adds the counted votes older than `lagMs` and not folded yet to leaderboard_cells and moves the
 * watermark up to them, in one transaction (two refits never fold the same votes: the second waits
 * for the first's lock, then starts from its watermark). With `reconcile`, the cells are instead
 * recounted from every counted vote up to the new watermark, so a vote that became visible after
 * an earlier fold had passed its time is counted too; only the cells that differ are written.
 *
 * A cell's `over_cap` is relative to the prompt cap it was folded with (`leaderboard_fold.prompt_cap`):
 * a fold with another `promptCap` (the setting changed) empties the cells and folds every vote again.
 */
export async function foldCountedVotes(db: Db, lagMs = FOLD_LAG_MS, opts: { reconcile?: boolean; promptCap?: number } = {}): Promise<FoldResult> {
  const promptCap = opts.promptCap ?? DEFAULT_PROMPT_CAP;
  return withTransaction(db, async (client) => {
    await client.query(`INSERT INTO leaderboard_fold (folded_through, prompt_cap) VALUES ('-infinity', $1) ON CONFLICT (id) DO NOTHING`, [promptCap]);
    const { rows: fold } = await client.query<{ prompt_cap: number | null }>('SELECT prompt_cap FROM leaderboard_fold FOR UPDATE');
    if (fold[0]?.prompt_cap !== promptCap) {
      await client.query('DELETE FROM leaderboard_cells');
      await client.query(`UPDATE leaderboard_fold SET folded_through = '-infinity', prompt_cap = $1`, [promptCap]);
    }
    const { rows } = await client.query<{ from: Date; through: Date }>(
      `SELECT folded_through AS from, greatest(folded_through, now() - make_interval(secs => $1::float8 / 1000)) AS through
         FROM leaderboard_fold`,
      [lagMs],
    );
    const { from, through } = rows[0] as { from: Date; through: Date };
    let corrected = 0;
    if (opts.reconcile) {
      // The cells become the count of every counted vote up to the watermark as this transaction
      // sees them: a vote that committed after an earlier fold had passed its time is added now.
      // Only the cells that differ are written.
      const { rows: fixed } = await client.query<{ n: number }>(
        `WITH truth AS (${cellsOfVotes('v.created_at <= $1', promptCap)}),
              written AS (
                INSERT INTO leaderboard_cells AS c (${CELL_KEY}, label_a, family_a, label_b, family_b, n)
                SELECT ${CELL_KEY}, label_a, family_a, label_b, family_b, n FROM truth
                ON CONFLICT (${CELL_KEY}) DO UPDATE SET
                  n = EXCLUDED.n, label_a = EXCLUDED.label_a, family_a = EXCLUDED.family_a, label_b = EXCLUDED.label_b, family_b = EXCLUDED.family_b
                WHERE (c.n, c.label_a, c.family_a, c.label_b, c.family_b) IS DISTINCT FROM (EXCLUDED.n, EXCLUDED.label_a, EXCLUDED.family_a, EXCLUDED.label_b, EXCLUDED.family_b)
                RETURNING 1),
              dropped AS (
                DELETE FROM leaderboard_cells c
                 WHERE NOT EXISTS (SELECT 1 FROM truth t WHERE (t.tool, t.lang, t.has_image, t.multi_turn, t.over_cap, t.model_a, t.model_b, t.winner)
                                                           = (c.tool, c.lang, c.has_image, c.multi_turn, c.over_cap, c.model_a, c.model_b, c.winner))
                RETURNING 1)
         SELECT ((SELECT count(*) FROM written) + (SELECT count(*) FROM dropped))::int AS n`,
        [through],
      );
      corrected = (fixed[0] as { n: number }).n;
    } else {
      await client.query(
        `INSERT INTO leaderboard_cells AS c (${CELL_KEY}, label_a, family_a, label_b, family_b, n)
         SELECT ${CELL_KEY}, label_a, family_a, label_b, family_b, n FROM (${cellsOfVotes('v.created_at > $1 AND v.created_at <= $2', promptCap)}) f
         ON CONFLICT (${CELL_KEY}) DO UPDATE SET
           n = c.n + EXCLUDED.n, label_a = greatest(c.label_a, EXCLUDED.label_a), family_a = greatest(c.family_a, EXCLUDED.family_a),
           label_b = greatest(c.label_b, EXCLUDED.label_b), family_b = greatest(c.family_b, EXCLUDED.family_b)`,
        [from, through],
      );
    }
    await client.query('UPDATE leaderboard_fold SET folded_through = $1', [through]);
    return { through, corrected };
  });
}

/**
 * The counted votes grouped as {@link countedVotes} groups them, from the folded cells plus the
 * votes after `foldedThrough`: the same rows, without reading every vote. The four verdicts of a
 * pairing come in one row and each model's label once (a quarter of the rows, and no label on
 * each): at 30 models the cells are ~100,000, and reading them row by row would cost more than
 * folding. `promptCap` must be the cap the cells were just folded with ({@link foldCountedVotes}).
 */
export async function countedCells(db: Db, foldedThrough: Date, promptCap = DEFAULT_PROMPT_CAP): Promise<CountedRow[]> {
  const counted = `SELECT tool, lang, has_image, multi_turn, over_cap, model_a, label_a, family_a, model_b, label_b, family_b, winner, n FROM leaderboard_cells
                   UNION ALL
                   SELECT v.tool, b.lang, b.has_image, ${MULTI_TURN}, ${overPromptCapSql(promptCap)}, b.model_a, b.label_a, b.family_a, b.model_b, b.label_b, b.family_b, v.winner, 1
                     FROM votes v JOIN battles b ON b.id = v.battle_id
                    WHERE v.counted AND v.created_at > $1`;
  const [cells, models] = await Promise.all([
    db.query<[string, Language, boolean, boolean, boolean, string, string, number, number, number, number]>({
      text: `SELECT tool, lang, has_image, multi_turn, over_cap, model_a, model_b,
                    sum(n) FILTER (WHERE winner = 'a')::int, sum(n) FILTER (WHERE winner = 'b')::int,
                    sum(n) FILTER (WHERE winner = 'tie')::int, sum(n) FILTER (WHERE winner = 'both_bad')::int
               FROM (${counted}) c
              GROUP BY tool, lang, has_image, multi_turn, over_cap, model_a, model_b`,
      values: [foldedThrough],
      rowMode: 'array',
    }),
    db.query<{ model: string; label: string; family: ModelFamily }>(
      `SELECT model, max(label) AS label, max(family) AS family
         FROM (SELECT model_a AS model, label_a AS label, family_a AS family FROM (${counted}) a
               UNION ALL
               SELECT model_b, label_b, family_b FROM (${counted}) b) m
        GROUP BY model`,
      [foldedThrough],
    ),
  ]);
  const meta = new Map(models.rows.map((m) => [m.model, m]));
  const rows: CountedRow[] = [];
  for (const [tool, lang, hasImage, multiTurn, overCap, a, b, ...byVerdict] of cells.rows) {
    const ma = meta.get(a) as { label: string; family: ModelFamily };
    const mb = meta.get(b) as { label: string; family: ModelFamily };
    VERDICTS.forEach((winner, k) => {
      const n = byVerdict[k];
      if (n) rows.push({ tool, lang, has_image: hasImage, multi_turn: multiTurn, over_cap: overCap, model_a: a, label_a: ma.label, family_a: ma.family, model_b: b, label_b: mb.label, family_b: mb.family, winner, n });
    });
  }
  return rows;
}

const VERDICTS: readonly Winner[] = ['a', 'b', 'tie', 'both_bad'];

/**
 * One counted vote with both answers' style features, as arrays (`rowMode: 'array'`, far lighter
 * than an object per vote): tool, lang, has_image, multi_turn, model_a, model_b, winner, then the
 * five features of side a and the five of side b, in the order of STYLE_FEATURES.
 */
export type StyledRow = [string, Language, boolean, boolean, string, string, Winner, ...number[]];

const STYLE_COLUMNS = ['length', 'headers', 'list_items', 'bold', 'code_blocks'] as const;

/**
 * Every counted vote with its answers' styles, in a stable order (the bootstrap's draws follow it),
 * but those over the prompt cap `promptCap`: style-controlled boards are de-duplicated only.
 * The vote judges the whole conversation, so a side's style is the sum over its answers in every
 * turn (as Chatbot Arena counts a conversation's); a one-turn battle's is its one answer's. An
 * answer without a stored style (none should be left after {@link backfillAnswerStyles}) reads
 * as all zeros.
 */
export async function styledVotes(db: Db, promptCap = DEFAULT_PROMPT_CAP): Promise<StyledRow[]> {
  const { rows } = await db.query<StyledRow>({ text: styledVotesSql('', '', 'true', promptCap), rowMode: 'array' });
  return rows;
}

/**
 * The statement of {@link styledVotes}, with more columns after the features (`extra`, each with a
 * leading comma), more joins (`joins`) and a condition on the vote (`where`).
 */
function styledVotesSql(extra: string, joins: string, where: string, promptCap: number): string {
  const side = (s: 'a' | 'b') => STYLE_COLUMNS.map((f) => `coalesce(s${s}.style_${f}, 0) + coalesce(fu.${f}_${s}, 0)`).join(', ');
  const followUps = STYLE_COLUMNS.flatMap((f) => (['a', 'b'] as const).map((s) => `sum(fa.style_${f}) FILTER (WHERE fa.side = '${s}')::int AS ${f}_${s}`));
  return `SELECT v.tool, b.lang, b.has_image, ${MULTI_TURN}, b.model_a, b.model_b, v.winner, ${side('a')}, ${side('b')}${extra}
            FROM votes v JOIN battles b ON b.id = v.battle_id ${joins}
            LEFT JOIN answers sa ON sa.battle_id = v.battle_id AND sa.side = 'a'
            LEFT JOIN answers sb ON sb.battle_id = v.battle_id AND sb.side = 'b'
            LEFT JOIN (SELECT f.root_id, ${followUps.join(', ')}
                         FROM battles f JOIN answers fa ON fa.battle_id = f.id
                        WHERE f.root_id IS NOT NULL
                        GROUP BY f.root_id) fu ON fu.root_id = v.battle_id
           WHERE v.counted AND NOT ${overPromptCapSql(promptCap)} AND ${where}
           ORDER BY v.created_at, v.battle_id`;
}

/**
 * A battle's place in the style fit's sample: a hash of its id, uniform over [0, 2^31). A vote is
 * in a board's sample when this is below the board's limit, so the samples are the same on every
 * refit, and a board's sample holds every smaller board's votes it would (nested, not independent).
 */
const BATTLE_HASH = '(hashtext(v.battle_id::text) & 2147483647)';
export const BATTLE_HASH_RANGE = 2 ** 31;

/** {@link StyledRow} with the battle's hash ({@link BATTLE_HASH_RANGE}) last. */
export type HashedStyledRow = [...StyledRow, number];

/** The votes of one slice of the counted votes (tool, language, picture, turns) the style fit reads: those whose hash is below `limit`. */
export interface StyledSliceLimit {
  tool: string;
  lang: string;
  has_image: boolean;
  multi_turn: boolean;
  limit: number;
}

/**
 * {@link styledVotes}' rows in the same order with the battle's hash appended, only those whose hash
 * is below their slice's limit (`otherLimit` in a slice not listed), handed to `onBatch` a batch at
 * a time: a cursor in one transaction, each FETCH a plain query with the pool's time bound, so
 * this process holds one batch of rows at a time however many votes there are.
 */
export async function forEachStyledVote(
  db: Db,
  limits: readonly StyledSliceLimit[],
  otherLimit: number,
  onBatch: (rows: HashedStyledRow[]) => void,
  batch = 10_000,
  promptCap = DEFAULT_PROMPT_CAP,
): Promise<void> {
  const joins = `LEFT JOIN unnest($1::text[], $2::text[], $3::bool[], $4::bool[], $5::int8[]) AS l(tool, lang, has_image, multi_turn, lim)
                   ON l.tool = v.tool AND l.lang = b.lang AND l.has_image = b.has_image AND l.multi_turn = (${MULTI_TURN})`;
  const sql = styledVotesSql(`, ${BATTLE_HASH}`, joins, `${BATTLE_HASH} < coalesce(l.lim, $6::int8)`, promptCap);
  await withTransaction(db, async (client) => {
    // The whole result is read: plan for it, not for its first rows (a cursor's default).
    await client.query('SET LOCAL cursor_tuple_fraction = 1');
    await client.query(`DECLARE styled_votes NO SCROLL CURSOR FOR ${sql}`, [
      limits.map((l) => l.tool),
      limits.map((l) => l.lang),
      limits.map((l) => l.has_image),
      limits.map((l) => l.multi_turn),
      limits.map((l) => l.limit),
      otherLimit,
    ]);
    for (;;) {
      const { rows } = await client.query<HashedStyledRow>({ text: `FETCH FORWARD ${batch} FROM styled_votes`, rowMode: 'array' });
      if (rows.length > 0) onBatch(rows);
      if (rows.length < batch) return;
    }
  });
}

/**
 * Counts the style of answers stored before styles were (migration 1764400000000), a batch at a
 * time, with the parser that counts new answers. Returns how many it filled in.
 */
export async function backfillAnswerStyles(db: Db, batch = 2_000): Promise<number> {
  let filled = 0;
  for (;;) {
    const { rows } = await db.query<{ battle_id: string; side: string; text: string }>(
      'SELECT battle_id, side, text FROM answers WHERE style_length IS NULL LIMIT $1',
      [batch],
    );
    if (rows.length === 0) return filled;
    const styles = rows.map((r) => answerStyle(r.text));
    await db.query(
      `UPDATE answers a SET style_length = s.length, style_headers = s.headers, style_list_items = s.list_items,
              style_bold = s.bold, style_code_blocks = s.code_blocks
         FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[])
              AS s(battle_id, side, length, headers, list_items, bold, code_blocks)
        WHERE a.battle_id = s.battle_id AND a.side = s.side`,
      [
        rows.map((r) => r.battle_id),
        rows.map((r) => r.side),
        styles.map((x) => x.length),
        styles.map((x) => x.headers),
        styles.map((x) => x.listItems),
        styles.map((x) => x.bold),
        styles.map((x) => x.codeBlocks),
      ],
    );
    filled += rows.length;
    if (rows.length < batch) return filled;
  }
}

/** A model's speed over one slice of the counted battles: all (every key null), a tool, a language, a kind or the multi-turn ones. */
export interface SpeedRow extends ModelSpeed {
  model: string;
  tool: string | null;
  lang: Language | null;
  has_image: boolean | null;
  /** True on the multi-turn battles' figures, null on every other slice's. */
  multi_turn: boolean | null;
}

/**
 * Counted battles the speed figures read at most: above it, a fixed sample of them (by a hash of
 * the battle id, so the same battles each time). Medians need sorting every value of every model
 * in every slice; at a million votes that would cost the refit more than all the ratings.
 */
export const SPEED_SAMPLE_BATTLES = 50_000;

/**
 * Medians (and the middle half of the first-token times) of the answers of counted battles, per
 * model, overall and per tool, language, kind of question and for the multi-turn battles, in one
 * pass (grouping sets; the one-turn battles' own slice is left out, no board shows it). Every
 * slice reads each battle's first turn, so the multi-turn figures compare with the others (a
 * follow-up's first token waits on a longer conversation). Tokens per second count the output
 * tokens over the time after the first one. With more than {@link SPEED_SAMPLE_BATTLES} counted
 * battles (`countedBattles`), a sample of about that many; `answers` says how many answers each
 * figure comes from.
 */
export async function speedStats(db: Db, countedBattles: number): Promise<SpeedRow[]> {
  const share = Math.min(1, SPEED_SAMPLE_BATTLES / Math.max(1, countedBattles));
  const { rows } = await db.query<SpeedRow>(
    `SELECT a.model, v.tool, b.lang, b.has_image, ${MULTI_TURN} AS multi_turn,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY a.ttft_ms) AS "ttftMsP50",
            percentile_cont(0.25) WITHIN GROUP (ORDER BY a.ttft_ms) AS "ttftMsP25",
            percentile_cont(0.75) WITHIN GROUP (ORDER BY a.ttft_ms) AS "ttftMsP75",
            percentile_cont(0.5) WITHIN GROUP (ORDER BY a.output_tokens * 1000.0 / nullif(a.duration_ms - a.ttft_ms, 0)) AS "tokensPerSecondP50",
            percentile_cont(0.5) WITHIN GROUP (ORDER BY coalesce(a.style_length, char_length(a.text))) AS "answerCharsP50",
            count(*)::int AS answers
       FROM votes v JOIN battles b ON b.id = v.battle_id JOIN answers a ON a.battle_id = v.battle_id
      WHERE v.counted AND ($1::float8 >= 1 OR (hashtext(v.battle_id::text) & 65535) < $1::float8 * 65536)
      GROUP BY GROUPING SETS ((a.model), (a.model, v.tool), (a.model, b.lang), (a.model, b.has_image), (a.model, ${MULTI_TURN}))
     HAVING ${MULTI_TURN} IS NOT FALSE`,
    [share],
  );
  return rows;
}

/** A board's figures for one day, as the snapshot keeps them. */
export interface SnapshotRow {
  scope: string;
  control: LeaderboardControl;
  votes: number;
  models: { model: string; label: string; rating: number; ciLow: number; ciHigh: number }[];
}

/**
 * Keeps today's (UTC) snapshot of each board: one row per board and day, written again only when
 * the board's votes changed since, so running it twice with the same boards changes nothing.
 */
export async function writeSnapshots(db: Db, snapshots: SnapshotRow[]): Promise<void> {
  if (snapshots.length === 0) return;
  await db.query(
    `INSERT INTO leaderboard_snapshots AS s (scope, control, day, votes, models)
     SELECT d.scope, d.control, (now() AT TIME ZONE 'UTC')::date, d.votes, d.models
       FROM jsonb_to_recordset($1::jsonb) AS d(scope text, control text, votes integer, models jsonb)
     ON CONFLICT (scope, control, day) DO UPDATE SET votes = EXCLUDED.votes, models = EXCLUDED.models, computed_at = now()
      WHERE s.votes <> EXCLUDED.votes`,
    [JSON.stringify(snapshots)],
  );
}

/**
 * Replaces the stored speed figures with those of the last style refit, in one transaction: a
 * plain refit reading meanwhile sees the old ones or the new ones, never none.
 */
export async function writeSpeeds(db: Db, speeds: SpeedRow[]): Promise<void> {
  await withTransaction(db, async (client) => {
    await client.query('DELETE FROM leaderboard_speeds');
    await client.query(
      `INSERT INTO leaderboard_speeds (model, tool, lang, has_image, multi_turn, ttft_ms_p50, ttft_ms_p25, ttft_ms_p75, tokens_per_second_p50, answer_chars_p50, answers)
       SELECT model, tool, lang, has_image, multi_turn, "ttftMsP50", "ttftMsP25", "ttftMsP75", "tokensPerSecondP50", "answerCharsP50", answers
         FROM jsonb_to_recordset($1::jsonb) AS d(model text, tool text, lang text, has_image boolean, multi_turn boolean, "ttftMsP50" float8, "ttftMsP25" float8,
                                                 "ttftMsP75" float8, "tokensPerSecondP50" float8, "answerCharsP50" float8, answers integer)`,
      [JSON.stringify(speeds)],
    );
  });
}

/** The speed figures the last style refit stored (none before its first run). */
export async function storedSpeeds(db: Db): Promise<SpeedRow[]> {
  const { rows } = await db.query<SpeedRow>(
    `SELECT model, tool, lang, has_image, multi_turn, ttft_ms_p50 AS "ttftMsP50", ttft_ms_p25 AS "ttftMsP25", ttft_ms_p75 AS "ttftMsP75",
            tokens_per_second_p50 AS "tokensPerSecondP50", answer_chars_p50 AS "answerCharsP50", answers
       FROM leaderboard_speeds`,
  );
  return rows;
}
