/**
 * Reads the figures of an accounting question (cost, residual value, useful life, method, rate,
 * VAT) and works them out: depreciation by straight-line, declining-balance or sum-of-the-years'-
 * digits, and value-added tax. Pure arithmetic, so the demo answers' figures are always right.
 */

/** A number written in a question: `1,000,000`, `1,000만`, `$50,000`, `3억`. */
const NUMBER = /(\d[\d,]*(?:\.\d+)?)\s*(억|만)?/g;

function readNumber(raw: string, unit: string | undefined): number {
  const n = Number(raw.replace(/,/g, ''));
  return unit === '억' ? n * 100_000_000 : unit === '만' ? n * 10_000 : n;
}

/** The first number within a few words after `label`. */
function after(text: string, label: RegExp): number | undefined {
  const m = new RegExp(`(?:${label.source})[^\\d\\n]{0,24}?(\\d[\\d,]*(?:\\.\\d+)?)\\s*(억|만)?`, 'i').exec(text);
  return m?.[1] === undefined ? undefined : readNumber(m[1], m[2]);
}

/** Amounts of money: numbers not followed by a year, percent or month unit. */
function amounts(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const rest = text.slice((m.index ?? 0) + m[0].length);
    if (/^\s*(?:%|퍼센트|년|years?|yrs?|개월|months?|회|번|차)/i.test(rest)) continue;
    out.push(readNumber(m[1] ?? '0', m[2]));
  }
  return out;
}

/** The largest amount in a text, NaN when there is none. */
const largest = (text: string): number => {
  const all = amounts(text);
  return all.length ? Math.max(...all) : NaN;
};

export type Method = 'straight' | 'declining' | 'double' | 'syd';

export interface Depreciation {
  cost: number;
  residual: number;
  /** True when the question gave no residual value and 0 was assumed. */
  residualAssumed: boolean;
  life: number;
  method: Method;
  /** The declining-balance rate, as a fraction. */
  rate?: number;
  /** Year by year: the expense, the accumulated total and the book value at year end. */
  schedule: { year: number; expense: number; accumulated: number; book: number }[];
}

const round = (n: number): number => Math.round(n);

/** Depreciation asked for in `text`, or undefined when it is not a depreciation question with usable figures. */
export function depreciationOf(text: string): Depreciation | undefined {
  if (!/감가상각|depreciat|내용\s*연수|useful life|정액법|정률법|연수합계|straight[- ]line|declining|\blasts?\b|수명/i.test(text)) return undefined;
  const life = after(text, /내용\s*연수|useful life|life|사용\s*기간|수명|lasts?/) ?? Number(/(\d+)\s*(?:년|years?)/i.exec(text)?.[1] ?? NaN);
  const residualGiven = after(text, /잔존\s*가치|잔존가액|잔존|residual(?: value)?|salvage(?: value)?|scrap(?: value)?/);
  const cost = after(text, /취득\s*원가|취득가액|원가|구입\s*가격|구입가|cost(?:s|ing)?|purchase[ds]?(?: for| at)?|bought(?: for)?|acquired(?: for)?|price/) ?? largest(text);
  if (!Number.isFinite(life) || life <= 0 || life > 100 || !Number.isFinite(cost) || cost <= 0) return undefined;
  const residual = residualGiven ?? 0;
  if (residual >= cost) return undefined;
  const method: Method = /이중\s*체감|double/i.test(text) ? 'double' : /정률법|declining|reducing/i.test(text) ? 'declining' : /연수\s*합계|sum[- ]of[- ]the[- ]years/i.test(text) ? 'syd' : 'straight';
  const pct = /(\d+(?:\.\d+)?)\s*(?:%|퍼센트)/.exec(text)?.[1];
  let rate: number | undefined;
  if (method === 'double') rate = 2 / life;
  if (method === 'declining') rate = pct ? Number(pct) / 100 : residual > 0 ? 1 - (residual / cost) ** (1 / life) : 2 / life;
  const schedule: Depreciation['schedule'] = [];
  let book = cost;
  const base = cost - residual;
  const digits = (life * (life + 1)) / 2;
  for (let year = 1; year <= Math.ceil(life); year++) {
    let expense =
      method === 'straight' ? base / life : method === 'syd' ? (base * (life - year + 1)) / digits : book * (rate ?? 0);
    // Declining balance never goes below the residual value; the last year takes what is left.
    if (method === 'declining' || method === 'double') expense = year === Math.ceil(life) ? book - residual : Math.min(expense, book - residual);
    expense = round(expense);
    book -= expense;
    schedule.push({ year, expense, accumulated: cost - book, book });
  }
  return { cost, residual, residualAssumed: residualGiven === undefined, life, method, ...(rate !== undefined ? { rate } : {}), schedule };
}

export interface Vat {
  supply: number;
  vat: number;
  total: number;
  /** True when the question's amount included the tax. */
  included: boolean;
}

/** Korean-style 10% VAT on an amount, or undefined when the question is not about VAT. */
export function vatOf(text: string): Vat | undefined {
  if (!/부가\s*가치세|부가세|\bVAT\b|value[- ]added tax/i.test(text)) return undefined;
  const amount = largest(text);
  if (!Number.isFinite(amount) || amount <= 0) return undefined;
  const rate = Number(/(\d+(?:\.\d+)?)\s*%/.exec(text)?.[1] ?? 10) / 100;
  const included = /포함|including|incl\.?|inclusive|gross/i.test(text);
  const supply = included ? round(amount / (1 + rate)) : amount;
  const vat = included ? amount - supply : round(amount * rate);
  return { supply, vat, total: supply + vat, included };
}

/** Every amount of money in a question, for the answer that cannot compute anything. */
export const amountsIn = amounts;
