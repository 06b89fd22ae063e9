/**
 * Simulated boards for the style study (`bench/style-study.bench.ts`) and its test: models of known
 * strength, each with its own habits of length and Markdown (the stronger ones, on average,
 * writing longer and with more Markdown, so the plain fit is biased), and votes whose log-odds are
 * the strength difference plus style effects acting through one data-generating form. Seeded
 * through the `rand` passed in.
 */
import type { StyledComparison } from './style-control.ts';

/** The data-generating forms: how a voter reacts to the two answers' values of one feature. */
export const STYLE_FORMS = {
  ratio: (a: number, b: number) => (a + b > 0 ? (a - b) / (a + b) : 0),
  'ratio-plus-one': (a: number, b: number) => (a - b) / (a + b + 1),
  difference: (a: number, b: number) => a - b,
  'log-ratio': (a: number, b: number) => Math.log((a + 1) / (b + 1)),
} as const;
export type StyleForm = keyof typeof STYLE_FORMS;
export const STYLE_FORM_NAMES = Object.keys(STYLE_FORMS) as StyleForm[];
/** Default true effect of each feature (length, headers, list items, bold, code blocks), log-odds per standard deviation of its covariate. */
export const SIMULATED_STYLE_EFFECT: readonly number[] = [0.4, 0.15, 0.15, 0.25, 0.1];
/** Mean count of each Markdown feature for a model of propensity 1. */
const MARKDOWN_MEAN = [1, 3, 1.5, 0.3];

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}
function poisson(rand: () => number, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rand(); p > limit; p *= rand()) k++;
  return k;
}

/** A simulated model: its true strength (log-odds) and its typical length and Markdown propensity. */
export interface SimulatedModel {
  strength: number;
  length: number;
  markdown: number;
}

export function simulatedModels(count: number, rand: () => number): SimulatedModel[] {
  return Array.from({ length: count }, () => {
    const z = gaussian(rand);
    return { strength: 0.6 * z, length: 400 * Math.exp(0.3 * z + 0.5 * gaussian(rand)), markdown: Math.exp(0.5 * z + 0.8 * gaussian(rand)) };
  });
}

function answer(m: SimulatedModel, rand: () => number): number[] {
  const spread = Math.exp(0.5 * gaussian(rand));
  return [Math.round(m.length * Math.exp(0.4 * gaussian(rand))), ...MARKDOWN_MEAN.map((mean) => poisson(rand, mean * m.markdown * spread))];
}

/** Standard deviation of each form's covariate per feature, over many answers of many simulated models: effects are given per one of them. */
export function styleFormSpreads(rand: () => number): Record<StyleForm, number[]> {
  const pool = simulatedModels(200, rand);
  const pick = () => answer(pool[Math.floor(rand() * pool.length)] as SimulatedModel, rand);
  const pairs = Array.from({ length: 40_000 }, () => [pick(), pick()] as const);
  return Object.fromEntries(
    STYLE_FORM_NAMES.map((form) => [
      form,
      SIMULATED_STYLE_EFFECT.map((_, k) => Math.sqrt(pairs.reduce((s, [a, b]) => s + STYLE_FORMS[form](a[k] as number, b[k] as number) ** 2, 0) / pairs.length)),
    ]),
  ) as Record<StyleForm, number[]>;
}

/** `votes` votes between random pairs of `board` (model i is `m${i}`), 5 % ties, the rest drawn from the strengths and the style effects under `form`. */
export function simulateStyledVotes(
  form: StyleForm,
  spread: readonly number[],
  board: readonly SimulatedModel[],
  votes: number,
  rand: () => number,
  effect: readonly number[] = SIMULATED_STYLE_EFFECT,
): StyledComparison[] {
  const out: StyledComparison[] = [];
  while (out.length < votes) {
    const i = Math.floor(rand() * board.length);
    const j = Math.floor(rand() * board.length);
    if (i === j) continue;
    const styleA = answer(board[i] as SimulatedModel, rand);
    const styleB = answer(board[j] as SimulatedModel, rand);
    let eta = (board[i] as SimulatedModel).strength - (board[j] as SimulatedModel).strength;
    effect.forEach((e, k) => (eta += (e / (spread[k] as number)) * STYLE_FORMS[form](styleA[k] as number, styleB[k] as number)));
    const winner: StyledComparison['winner'] = rand() < 0.05 ? 'tie' : rand() < 1 / (1 + Math.exp(-eta)) ? 'a' : 'b';
    out.push({ a: `m${i}`, b: `m${j}`, winner, styleA, styleB });
  }
  return out;
}

/** The fitted ratings (model `m${i}`) and the true strengths, both centred, on the rating scale of 400 points per factor of 10. */
export function centredRatings(board: readonly SimulatedModel[], fitted: ReadonlyMap<string, number>): { truth: number[]; fitted: number[] } {
  const centre = (xs: number[]) => {
    const mean = xs.reduce((s, v) => s + v, 0) / xs.length;
    return xs.map((x) => x - mean);
  };
  return { truth: centre(board.map((m) => (m.strength * 400) / Math.LN10)), fitted: centre(board.map((_, i) => fitted.get(`m${i}`) ?? Number.NaN)) };
}

/** Root mean square error of the centred fitted ratings against the centred truth, in rating points. */
export function ratingRmse(board: readonly SimulatedModel[], fitted: ReadonlyMap<string, number>): number {
  const c = centredRatings(board, fitted);
  return Math.sqrt(c.truth.reduce((s, v, i) => s + (v - (c.fitted[i] as number)) ** 2, 0) / c.truth.length);
}
