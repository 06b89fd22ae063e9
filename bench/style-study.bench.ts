/**
 * Which normalisation of the style features, and which penalty on their coefficients, recovers the
 * models' strengths? A seeded simulation study (`ratings/src/style-simulation.ts`): boards of known
 * strengths, where each model has its own habits of length and Markdown (the stronger ones, on
 * average, writing longer and with more Markdown, so the plain fit is biased), and votes whose
 * log-odds are the strength difference plus style effects acting through one of several
 * data-generating forms:
 *   ratio           (a − b) / (a + b)      Duet's fit, LMArena's arena-rank
 *   ratio-plus-one  (a − b) / (a + b + 1)  FastChat's fit
 *   difference      a − b
 *   log-ratio       ln((a + 1) / (b + 1))
 * each effect given per standard deviation of its form's covariate. Every board is fitted plainly
 * (the anchor: no style control) and with both normalisations at several penalties; the table
 * gives the RMSE of the centred ratings against the truth (rating points), Kendall's τ and
 * Spearman's ρ of the order, and how often the true #1 is on top, averaged over the boards.
 *
 *   npm run bench -- style-study [--boards 100] [--seed 1] [--quick]
 */
import { parseArgs } from 'node:util';
import { fitBradleyTerry, mulberry32 } from '@duet/ratings/ratings';
import { STYLE_NORMALIZATIONS, STYLE_RIDGE, styleControlledRatings } from '@duet/ratings/style-control';
import type { StyleNormalization, StyledComparison } from '@duet/ratings/style-control';
import { centredRatings, simulatedModels, simulateStyledVotes, STYLE_FORM_NAMES as FORM_NAMES, styleFormSpreads } from '@duet/ratings/style-simulation';
import type { SimulatedModel, StyleForm as Form } from '@duet/ratings/style-simulation';
import { machineLine, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: { boards: { type: 'string', default: '100' }, seed: { type: 'string', default: '1' }, quick: { type: 'boolean', default: false } },
});
const boards = values.quick ? 2 : Number(values.boards);
const seed = Number(values.seed);

const SIZES = (values.quick ? [{ models: 6, votes: 300 }, { models: 12, votes: 1_500 }] : [
  { models: 6, votes: 600 },
  { models: 12, votes: 3_000 },
  { models: 24, votes: 15_000 },
]) as { models: number; votes: number }[];
const RIDGES = [STYLE_RIDGE, 10, 100, 1_000];

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const r = new Array<number>(xs.length);
  order.forEach(([, i], pos) => (r[i] = pos));
  return r;
}
function pearson(x: readonly number[], y: readonly number[]): number {
  const mx = x.reduce((s, v) => s + v, 0) / x.length;
  const my = y.reduce((s, v) => s + v, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  x.forEach((v, i) => {
    sxy += (v - mx) * ((y[i] as number) - my);
    sxx += (v - mx) ** 2;
    syy += ((y[i] as number) - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}
function kendall(x: readonly number[], y: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) for (let j = i + 1; j < x.length; j++) s += Math.sign(((x[i] as number) - (x[j] as number)) * ((y[i] as number) - (y[j] as number)));
  return s / ((x.length * (x.length - 1)) / 2);
}

interface Score {
  rmse: number;
  kendall: number;
  spearman: number;
  top1: number;
}
function score(board: readonly SimulatedModel[], fitted: Map<string, number>): Score {
  const { truth: t, fitted: e } = centredRatings(board, fitted);
  const rmse = Math.sqrt(t.reduce((s, v, i) => s + (v - (e[i] as number)) ** 2, 0) / t.length);
  const best = (xs: number[]) => xs.indexOf(Math.max(...xs));
  return { rmse, kendall: kendall(t, e), spearman: pearson(ranks(t), ranks(e)), top1: best(t) === best(e) ? 1 : 0 };
}

const FITS = [
  { name: 'plain (anchor)', fit: (v: StyledComparison[]) => fitBradleyTerry(v) },
  ...RIDGES.flatMap((ridge) =>
    STYLE_NORMALIZATIONS.map((normalization: StyleNormalization) => ({
      name: `${normalization}, ridge ${ridge}`,
      normalization,
      ridge,
      fit: (v: StyledComparison[]) => styleControlledRatings(v, { normalization, styleRidge: ridge }).ratings,
    })),
  ),
];

const started = performance.now();
const rand = mulberry32(seed);
const spreads = styleFormSpreads(rand);
/** form → size index → fit name → scores over the boards. */
const results = new Map<Form, Score[][][]>();
/** form → size → boards where `ratio` at the default ridge beat `ratio-plus-one` on RMSE. */
const ratioWins = new Map<Form, number[]>();
for (const form of FORM_NAMES) {
  results.set(form, SIZES.map(() => FITS.map(() => [])));
  ratioWins.set(form, SIZES.map(() => 0));
  SIZES.forEach((size, s) => {
    for (let b = 0; b < boards; b++) {
      const board = simulatedModels(size.models, rand);
      const votes = simulateStyledVotes(form, spreads[form], board, size.votes, rand);
      const scores = FITS.map((f) => score(board, f.fit(votes)));
      scores.forEach((sc, f) => (results.get(form) as Score[][][])[s]![f]!.push(sc));
      const at = (n: StyleNormalization) => FITS.findIndex((f) => 'ridge' in f && f.ridge === STYLE_RIDGE && f.normalization === n);
      if ((scores[at('ratio')] as Score).rmse < (scores[at('ratio-plus-one')] as Score).rmse) (ratioWins.get(form) as number[])[s]! += 1;
    }
  });
}
const seconds = (performance.now() - started) / 1000;

const mean = (xs: Score[], key: keyof Score) => xs.reduce((s, x) => s + x[key], 0) / xs.length;
const cell = (form: Form, f: number, key: keyof Score) => {
  const all = (results.get(form) as Score[][][]).flatMap((bySize) => bySize[f] as Score[]);
  return mean(all, key);
};
const sizeLabel = SIZES.map((z) => `${z.models} models × ${z.votes}`);

console.log(`\n${await machineLine()} · seed ${seed} · ${boards} boards per form and size (${sizeLabel.join(', ')}) · ${round(seconds, 1)} s`);
console.log(`\nNormalisation at the default penalty (ridge ${STYLE_RIDGE}); RMSE of centred ratings in rating points, per board size; τ, ρ and top-1 over all sizes.`);
console.log(`\n| true form | fit | ${sizeLabel.map((l) => `RMSE ${l}`).join(' | ')} | Kendall τ | Spearman ρ | top-1 | ratio beat ratio-plus-one |`);
console.log(`|---|---|${SIZES.map(() => '---|').join('')}---|---|---|---|`);
const figures: Record<string, unknown>[] = [];
for (const form of FORM_NAMES) {
  const byForm = results.get(form) as Score[][][];
  FITS.forEach((f, i) => {
    const entry = {
      form,
      fit: f.name,
      rmse: SIZES.map((_, s) => round(mean(byForm[s]![i]!, 'rmse'), 1)),
      kendall: round(cell(form, i, 'kendall'), 3),
      spearman: round(cell(form, i, 'spearman'), 3),
      top1: round(cell(form, i, 'top1'), 2),
    };
    figures.push(entry);
    if ('ridge' in f && f.ridge !== STYLE_RIDGE) return;
    const wins = f.name.startsWith('ratio,') ? `${round((100 * (ratioWins.get(form) as number[]).reduce((s, v) => s + v, 0)) / (boards * SIZES.length), 0)} % of boards` : '';
    console.log(`| ${form} | ${f.name} | ${entry.rmse.join(' | ')} | ${entry.kendall} | ${entry.spearman} | ${entry.top1} | ${wins} |`);
  });
}
console.log(`\nPenalty: RMSE per board size and Kendall τ, averaged over the ${FORM_NAMES.length} true forms.`);
console.log(`\n| fit | ${sizeLabel.map((l) => `RMSE ${l}`).join(' | ')} | Kendall τ |`);
console.log(`|---|${SIZES.map(() => '---|').join('')}---|`);
FITS.forEach((f, i) => {
  const over = (s: number, key: keyof Score) => FORM_NAMES.reduce((acc, form) => acc + mean((results.get(form) as Score[][][])[s]![i]!, key), 0) / FORM_NAMES.length;
  const tau = FORM_NAMES.reduce((acc, form) => acc + cell(form, i, 'kendall'), 0) / FORM_NAMES.length;
  console.log(`| ${f.name} | ${SIZES.map((_, s) => round(over(s, 'rmse'), 1)).join(' | ')} | ${round(tau, 3)} |`);
});
console.log(JSON.stringify({ seed, boards, sizes: SIZES, ridges: RIDGES, seconds: round(seconds, 1), results: figures }));
