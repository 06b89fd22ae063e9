import { mulberry32 } from '@duet/ratings/ratings';
import { normalizedDifference } from '@duet/ratings/style-control';
import type { Winner } from '@duet/contracts';
import type pg from 'pg';

/**
 * Battles with answers and votes whose truth is known, for the style-controlled, speed and
 * category boards: three models of known strength, the weakest writing by far the longest answers,
 * and voters swayed partly by length. Drawn in JavaScript (seeded), stored in one statement.
 */
export const EVAL_MODELS = {
  'eval-sage': { label: 'Eval Sage', strength: 0.6, length: 300, ttftMs: 400, tokensPerSecond: 62 },
  'eval-clerk': { label: 'Eval Clerk', strength: 0.1, length: 800, ttftMs: 900, tokensPerSecond: 40 },
  'eval-rambler': { label: 'Eval Rambler', strength: -0.3, length: 2400, ttftMs: 1500, tokensPerSecond: 20 },
} as const;
type EvalModel = keyof typeof EVAL_MODELS;
const IDS = Object.keys(EVAL_MODELS) as EvalModel[];
export const LENGTH_EFFECT = 2;

export interface SeedOptions {
  votes: number;
  tool?: string;
  seed?: number;
  /** Every how-many-th battle came with a picture (0: none). */
  imageEvery?: number;
  /** Korean battles every how-many-th (the rest English). */
  koreanEvery?: number;
  /**
   * Every how-many-th battle had a follow-up before the vote (0: none): a second turn of its own row,
   * with both answers, whose first tokens come ten times later than the first turn's.
   */
  multiTurnEvery?: number;
  /** Stored without a style, as answers from before styles were counted. */
  withoutStyle?: boolean;
  counted?: boolean;
}

/** Stores `votes` battles with both answers (in each turn) and a vote; returns the battles' (first turns') ids. */
export async function seedEvaluationVotes(db: pg.Pool, o: SeedOptions): Promise<string[]> {
  const rand = mulberry32(o.seed ?? 1);
  const b: Record<string, unknown[]> = { id: [], lang: [], img: [], ma: [], la: [], mb: [], lb: [], winner: [], turns: [] };
  const f: Record<string, unknown[]> = { id: [], root: [] };
  const a: Record<string, unknown[]> = { id: [], side: [], model: [], text: [], len: [], ttft: [], dur: [], tokens: [] };
  for (let v = 0; v < o.votes; v++) {
    const ma = IDS[Math.floor(rand() * IDS.length)] as EvalModel;
    let mb = IDS[Math.floor(rand() * (IDS.length - 1))] as EvalModel;
    if (mb === ma) mb = IDS[IDS.length - 1] as EvalModel;
    const len = (m: EvalModel) => Math.round(EVAL_MODELS[m].length * (0.5 + rand()));
    const [lenA, lenB] = [len(ma), len(mb)];
    const eta = EVAL_MODELS[ma].strength - EVAL_MODELS[mb].strength + LENGTH_EFFECT * normalizedDifference(lenA, lenB);
    const winner: Winner = rand() < 0.05 ? 'tie' : rand() < 1 / (1 + Math.exp(-eta)) ? 'a' : 'b';
    const id = crypto.randomUUID();
    b.id!.push(id);
    b.lang!.push(o.koreanEvery && v % o.koreanEvery === 0 ? 'ko' : 'en');
    b.img!.push(Boolean(o.imageEvery && v % o.imageEvery === 0));
    b.ma!.push(ma);
    b.la!.push(EVAL_MODELS[ma].label);
    b.mb!.push(mb);
    b.lb!.push(EVAL_MODELS[mb].label);
    b.winner!.push(winner);
    const followUp = Boolean(o.multiTurnEvery && v % o.multiTurnEvery === 0);
    b.turns!.push(followUp ? 2 : 1);
    const turns: [string, number][] = [[id, 1]];
    if (followUp) {
      const next = crypto.randomUUID();
      f.id!.push(next);
      f.root!.push(id);
      turns.push([next, 10]);
    }
    for (const [turnId, later] of turns) {
      for (const [side, m, l] of [['a', ma, lenA], ['b', mb, lenB]] as const) {
        const spec = EVAL_MODELS[m];
        const tokens = Math.round(l / 4);
        a.id!.push(turnId);
        a.side!.push(side);
        a.model!.push(m);
        a.text!.push('x'.repeat(l));
        a.len!.push(o.withoutStyle ? null : l);
        a.ttft!.push(spec.ttftMs * later);
        a.dur!.push(Math.round(spec.ttftMs * later + (1000 * tokens) / spec.tokensPerSecond));
        a.tokens!.push(tokens);
      }
    }
  }
  const tool = o.tool ?? 'anything-question';
  await db.query(
    `WITH bi AS (
       INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation, has_image, turns)
       SELECT id, $1, lang, 'seeded', ma, la, 'other', mb, lb, 'other', 'blind', '\\x00'::bytea, 'finished', 'ok', img, turns
         FROM unnest($2::uuid[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::text[], $19::int[]) AS t(id, lang, img, ma, la, mb, lb, turns)
       RETURNING id, lang, model_a, label_a, model_b, label_b
     ), fi AS (
       INSERT INTO battles (id, root_id, turn, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation, has_image)
       SELECT f.id, r.id, 2, $1, r.lang, 'seeded follow-up', r.model_a, r.label_a, 'other', r.model_b, r.label_b, 'other', 'blind', '\\x00'::bytea, 'finished', 'ok', false
         FROM unnest($20::uuid[], $21::uuid[]) AS f(id, root) JOIN bi r ON r.id = f.root
     ), ai AS (
       INSERT INTO answers (battle_id, side, model, text, finish_reason, output_tokens, ttft_ms, duration_ms,
                            style_length, style_headers, style_list_items, style_bold, style_code_blocks)
       SELECT id, side, model, text, 'stop', tokens, ttft, dur, len, CASE WHEN len IS NULL THEN NULL ELSE 0 END,
              CASE WHEN len IS NULL THEN NULL ELSE 0 END, CASE WHEN len IS NULL THEN NULL ELSE 0 END, CASE WHEN len IS NULL THEN NULL ELSE 0 END
         FROM unnest($10::uuid[], $11::text[], $12::text[], $13::text[], $14::int[], $15::int[], $16::int[], $17::int[])
              AS t(id, side, model, text, len, ttft, dur, tokens)
       WHERE EXISTS (SELECT 1 FROM bi)
     )
     INSERT INTO votes (battle_id, tool, winner, counted, uncounted_reason)
     SELECT id, $1, winner, $18, CASE WHEN $18 THEN NULL ELSE 'named_mode' END FROM unnest($2::uuid[], $9::text[]) AS t(id, winner)
      WHERE EXISTS (SELECT 1 FROM bi)`,
    [tool, b.id, b.lang, b.img, b.ma, b.la, b.mb, b.lb, b.winner, a.id, a.side, a.model, a.text, a.len, a.ttft, a.dur, a.tokens, o.counted ?? true, b.turns, f.id, f.root],
  );
  return b.id as string[];
}
