/**
 * Linear and quadratic equations in one variable (`x^2 - 5x + 6 = 0`, `2x + 3 = 11`): read from
 * text, solved exactly, and written back as LaTeX.
 */
import { fmt } from './markdown.ts';

export interface Equation {
  variable: string;
  /** Coefficients of v², v and 1 after moving everything to the left side. */
  a: number;
  b: number;
  c: number;
}

/** Coefficients of one side: `3x^2-2x+1` → [3, -2, 1]; undefined when it is not a polynomial of degree ≤ 2. */
function side(s: string, v: string): [number, number, number] | undefined {
  const out: [number, number, number] = [0, 0, 0];
  const term = new RegExp(`([+-]?)(\\d+(?:\\.\\d+)?)?\\*?(${v}(?:\\^([12]))?)?`, 'gy');
  let at = 0;
  while (at < s.length) {
    term.lastIndex = at;
    const m = term.exec(s);
    if (!m || m[0] === '' || (m[2] === undefined && m[3] === undefined)) return undefined;
    const k = (m[1] === '-' ? -1 : 1) * (m[2] === undefined ? 1 : Number(m[2]));
    const power = m[3] === undefined ? 0 : m[4] === '2' ? 2 : 1;
    out[2 - power] = (out[2 - power] ?? 0) + k;
    at = term.lastIndex;
  }
  return out;
}

/** The first equation in one variable in a text, if any. */
export function findEquation(text: string): Equation | undefined {
  const clean = text.replace(/²/g, '^2').replace(/[−–]/g, '-').replace(/×/g, '*');
  for (const m of clean.matchAll(/[\d\sa-z^*.+-]+=[\d\sa-z^*.+-]+/gi)) {
    const flat = m[0].replace(/\s+/g, '');
    const v = /[a-z]/i.exec(flat)?.[0];
    if (!v || /[a-z]/i.test(flat.replace(new RegExp(v, 'g'), ''))) continue;
    const [l = '', r = ''] = flat.split('=');
    const left = side(l, v);
    const right = side(r, v);
    if (!left || !right) continue;
    const [a, b, c] = [left[0] - right[0], left[1] - right[1], left[2] - right[2]];
    if (a === 0 && b === 0) continue;
    return { variable: v, a, b, c };
  }
  return undefined;
}

/** Solutions of an equation: real roots in ascending order (one for a linear equation; none when D < 0). */
export function solve(e: Equation): number[] {
  if (e.a === 0) return [-e.c / e.b];
  const d = e.b * e.b - 4 * e.a * e.c;
  if (d < 0) return [];
  const r = Math.sqrt(d);
  const roots = [(-e.b - r) / (2 * e.a), (-e.b + r) / (2 * e.a)].sort((x, y) => x - y);
  return d === 0 ? [roots[0] ?? 0] : roots;
}

const coef = (k: number, v: string, first: boolean): string => {
  if (k === 0) return '';
  const sign = k < 0 ? (first ? '-' : ' - ') : first ? '' : ' + ';
  const abs = Math.abs(k);
  return `${sign}${abs === 1 && v ? '' : fmt(abs, 4)}${v}`;
};

/** The equation as LaTeX: `x^2 - 5x + 6 = 0`. */
export function latex(e: Equation): string {
  const v = e.variable;
  const parts = [
    [e.a, `${v}^2`],
    [e.b, v],
    [e.c, ''],
  ] as const;
  let s = '';
  for (const [k, x] of parts) s += coef(k, x, s === '');
  return `${s || '0'} = 0`;
}

/** A number as LaTeX: integers plainly, simple fractions as \frac, others to four decimals. */
export function num(n: number): string {
  if (Number.isInteger(n)) return fmt(n, 0).replace(/,/g, '{,}');
  for (const den of [2, 3, 4, 5, 6, 8]) {
    const top = n * den;
    if (Math.abs(top - Math.round(top)) < 1e-9) return `${n < 0 ? '-' : ''}\\frac{${Math.abs(Math.round(top))}}{${den}}`;
  }
  return fmt(n, 4);
}
