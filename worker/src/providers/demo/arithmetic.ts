/**
 * Finds and evaluates the simple calculations in a question: digits or number words, + − × ÷,
 * powers, square roots, percentages and parentheses, written in English or Korean
 * (“12 + 7”, “twelve plus seven”, “3 곱하기 4”, “20% of 150”, “144의 제곱근”).
 */
import { fmt } from './markdown.ts';

type Op = '+' | '-' | '*' | '/' | '^';
type Token =
  | { t: 'num'; v: number; word: boolean }
  | { t: 'op'; v: Op }
  | { t: 'sqrt' }
  | { t: 'post'; v: 'sq' | 'cube' | 'pct' }
  | { t: '(' }
  | { t: ')' }
  | { t: 'sep' };

/** A calculation found in a question: how to show it and its value. */
export interface Calculation {
  /** The expression as shown: `12 + 7`, `3 × (4 + 5)`. */
  expr: string;
  value: number;
  /** The value as shown: `19`, `1,000,000`, `3.3333`. */
  text: string;
  /** True when `text` is rounded. */
  approx: boolean;
}

const EN_UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const EN_SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000 };
const KO_NATIVE: Record<string, number> = {
  하나: 1, 둘: 2, 셋: 3, 넷: 4, 다섯: 5, 여섯: 6, 일곱: 7, 여덟: 8, 아홉: 9, 열: 10, 스물: 20, 서른: 30, 마흔: 40, 쉰: 50,
};
const KO_DIGIT: Record<string, number> = { 영: 0, 공: 0, 일: 1, 이: 2, 삼: 3, 사: 4, 오: 5, 육: 6, 칠: 7, 팔: 8, 구: 9 };
const KO_UNIT: Record<string, number> = { 십: 10, 백: 100, 천: 1000 };

/** Sino-Korean numerals (이십삼 → 23, 천이백 → 1200, 삼만 → 30000). */
function sinoKorean(word: string): number | undefined {
  if (!/^[영공일이삼사오육칠팔구십백천만]+$/.test(word)) return undefined;
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const ch of word) {
    if (ch in KO_DIGIT) digit = KO_DIGIT[ch] ?? 0;
    else if (ch in KO_UNIT) {
      section += (digit < 0 ? 1 : digit) * (KO_UNIT[ch] ?? 1);
      digit = -1;
    } else {
      total += (section + (digit < 0 ? 0 : digit) || 1) * 10_000;
      section = 0;
      digit = -1;
    }
  }
  return total + section + (digit < 0 ? 0 : digit);
}

/** English number words (“twenty-one”, “three hundred and five”). */
function englishNumber(words: string[]): number | undefined {
  let total = 0;
  let current = 0;
  let seen = false;
  for (const w of words) {
    if (w === 'and') continue;
    if (w in EN_UNITS) current += EN_UNITS[w] ?? 0;
    else if (w === 'hundred') current = (current || 1) * 100;
    else if (w in EN_SCALES) {
      total += (current || 1) * (EN_SCALES[w] ?? 1);
      current = 0;
    } else return undefined;
    seen = true;
  }
  return seen ? total + current : undefined;
}

const WORD_OPS: [RegExp, Token][] = [
  [/^(?:plus|add|더하기|플러스)$/, { t: 'op', v: '+' }],
  [/^(?:minus|빼기|마이너스)$/, { t: 'op', v: '-' }],
  [/^(?:times|multiplied by|곱하기)$/, { t: 'op', v: '*' }],
  [/^(?:divided by|over|나누기)$/, { t: 'op', v: '/' }],
  [/^(?:to the power of|제곱을)$/, { t: 'op', v: '^' }],
  [/^(?:squared)$/, { t: 'post', v: 'sq' }],
  [/^(?:cubed)$/, { t: 'post', v: 'cube' }],
  [/^(?:square root of|the square root of|sqrt|루트)$/, { t: 'sqrt' }],
];

const LEXER =
  /(\d[\d,]*(?:\.\d+)?|\.\d+)|(to the power of|square root of|multiplied by|divided by|[a-z]+(?:-[a-z]+)*)|([가-힣]+)|([-+*/^×÷−–·x()²³%√=])|(\s+)|(.)/giu;

function lex(text: string): Token[] {
  const out: Token[] = [];
  let words: string[] = [];
  const flushWords = () => {
    if (!words.length) return;
    const v = englishNumber(words);
    out.push(v === undefined ? { t: 'sep' } : { t: 'num', v, word: true });
    words = [];
  };
  for (const m of text.matchAll(LEXER)) {
    const [, num, latin, hangul, sym, space] = m;
    if (space) continue;
    const lower = latin?.toLowerCase();
    if (lower && (lower.split('-').every((w) => w in EN_UNITS || w in EN_SCALES) || (lower === 'and' && words.length))) {
      words.push(...lower.split('-'));
      continue;
    }
    flushWords();
    if (num) out.push({ t: 'num', v: Number(num.replace(/,/g, '')), word: false });
    else if (lower) {
      const op = WORD_OPS.find(([re]) => re.test(lower));
      if (op) out.push(op[1]);
      else if (lower === 'x' && out.at(-1)?.t === 'num') out.push({ t: 'op', v: '*' });
      else if (lower === 'of' && out.at(-1)?.t === 'post') out.push({ t: 'op', v: '*' });
      else out.push({ t: 'sep' });
    } else if (hangul) out.push(...koreanWord(hangul, out));
    else if (sym) out.push(symbol(sym, out));
    else out.push({ t: 'sep' });
  }
  flushWords();
  return out;
}

/** A Korean word: an operator, a number word, or the 의 of “3의 제곱”, “144의 제곱근”, “150의 20%”. */
function koreanWord(word: string, before: Token[]): Token[] {
  const op = WORD_OPS.find(([re]) => re.test(word));
  if (op) return [op[1]];
  if (word === '의' && before.at(-1)?.t === 'num') return [{ t: 'op', v: '*' }];
  if (/^제곱(?:은|이|을|는)?$/.test(word)) return [{ t: 'post', v: 'sq' }];
  if (/^세제곱/.test(word)) return [{ t: 'post', v: 'cube' }];
  const bare = word.replace(/(?:은|는|이|가|을|를|와|과|에|에서|으로|로)$/, '');
  const native = KO_NATIVE[word] ?? KO_NATIVE[bare];
  if (native !== undefined) return [{ t: 'num', v: native, word: true }];
  const sino = bare.length >= 1 ? sinoKorean(bare) : undefined;
  return sino !== undefined ? [{ t: 'num', v: sino, word: true }] : [{ t: 'sep' }];
}

function symbol(s: string, before: Token[]): Token {
  if (s === '(' || s === ')') return { t: s };
  if (s === '²') return { t: 'post', v: 'sq' };
  if (s === '³') return { t: 'post', v: 'cube' };
  if (s === '%') return { t: 'post', v: 'pct' };
  if (s === '√') return { t: 'sqrt' };
  if (s === '=') return { t: 'sep' };
  if (s === 'x' || s === 'X') return before.at(-1)?.t === 'num' ? { t: 'op', v: '*' } : { t: 'sep' };
  const op: Record<string, Op> = { '+': '+', '-': '-', '−': '-', '–': '-', '*': '*', '×': '*', '·': '*', '/': '/', '÷': '/', '^': '^' };
  return { t: 'op', v: op[s] ?? '+' };
}

/** Recursive descent over one run of tokens; `null` when it is not a whole expression. */
class Parser {
  private i = 0;
  ops = 0;
  constructor(private readonly toks: Token[]) {}
  parse(): { v: number; s: string } | null {
    const r = this.sum();
    return r && this.i === this.toks.length ? r : null;
  }
  private peek(): Token | undefined {
    return this.toks[this.i];
  }
  private sum(): { v: number; s: string } | null {
    let left = this.product();
    for (let t = this.peek(); left && t?.t === 'op' && (t.v === '+' || t.v === '-'); t = this.peek()) {
      this.i++;
      this.ops++;
      const right = this.product();
      if (!right) return null;
      left = { v: t.v === '+' ? left.v + right.v : left.v - right.v, s: `${left.s} ${t.v === '+' ? '+' : '−'} ${right.s}` };
    }
    return left;
  }
  private product(): { v: number; s: string } | null {
    let left = this.unary();
    for (let t = this.peek(); left && (t?.t === '(' || (t?.t === 'op' && (t.v === '*' || t.v === '/'))); t = this.peek()) {
      const implicit = t.t === '(';
      if (!implicit) this.i++;
      this.ops++;
      const right = this.unary();
      if (!right) return null;
      const div = !implicit && t.t === 'op' && t.v === '/';
      if (div && right.v === 0) return null;
      left = { v: div ? left.v / right.v : left.v * right.v, s: `${left.s} ${div ? '÷' : '×'} ${right.s}` };
    }
    return left;
  }
  private unary(): { v: number; s: string } | null {
    const t = this.peek();
    if (t?.t === 'op' && t.v === '-') {
      this.i++;
      const r = this.unary();
      return r && { v: -r.v, s: `−${r.s}` };
    }
    return this.power();
  }
  private power(): { v: number; s: string } | null {
    const base = this.postfix();
    const t = this.peek();
    if (!base || t?.t !== 'op' || t.v !== '^') return base;
    this.i++;
    this.ops++;
    const exp = this.unary();
    return exp && { v: base.v ** exp.v, s: `${base.s}^${exp.s}` };
  }
  private postfix(): { v: number; s: string } | null {
    let r = this.atom();
    for (let t = this.peek(); r && t?.t === 'post'; t = this.peek()) {
      this.i++;
      this.ops++;
      if (t.v === 'sq') r = { v: r.v ** 2, s: `${r.s}²` };
      else if (t.v === 'cube') r = { v: r.v ** 3, s: `${r.s}³` };
      else r = { v: r.v / 100, s: `${r.s}%` };
    }
    return r;
  }
  private atom(): { v: number; s: string } | null {
    const t = this.peek();
    if (t?.t === 'num') {
      this.i++;
      return { v: t.v, s: fmt(t.v, 6) };
    }
    if (t?.t === 'sqrt') {
      this.i++;
      this.ops++;
      const r = this.postfix();
      return r && r.v >= 0 ? { v: Math.sqrt(r.v), s: `√${r.s}` } : null;
    }
    if (t?.t === '(') {
      this.i++;
      const r = this.sum();
      if (!r || this.peek()?.t !== ')') return null;
      this.i++;
      return { v: r.v, s: `(${r.s})` };
    }
    return null;
  }
}

/** A value as shown: whole numbers with separators, others to four decimals. */
export function showNumber(v: number): { text: string; approx: boolean } {
  const text = fmt(v, 4);
  return { text, approx: Math.abs(Number(text.replace(/,/g, '')) - v) > 1e-9 };
}

/** Splits tokens into runs of what could be one expression. */
function runsOf(tokens: Token[]): Token[][] {
  const runs: Token[][] = [];
  let run: Token[] = [];
  for (const t of tokens) {
    if (t.t === 'sep') {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(t);
  }
  if (run.length) runs.push(run);
  return runs;
}

/** The largest whole expression inside a run, trimming stray tokens from its ends. */
function bestIn(run: Token[]): Calculation | undefined {
  for (let len = run.length; len >= 2; len--) {
    for (let start = 0; start + len <= run.length; start++) {
      const p = new Parser(run.slice(start, start + len));
      const r = p.parse();
      const nums = run.slice(start, start + len).filter((t) => t.t === 'num');
      // A lone number word is not a calculation, nor is “-5” on its own.
      if (!r || p.ops === 0 || !Number.isFinite(r.v) || nums.every((t) => t.t === 'num' && t.word && nums.length < 2)) continue;
      if (nums.length < 2 && !run.slice(start, start + len).some((t) => t.t === 'post' || t.t === 'sqrt')) continue;
      return { expr: r.s, value: r.v, ...showNumber(r.v) };
    }
  }
  return undefined;
}

/** True for an equation in a variable (`x^2 - 5x + 6 = 0`, `2x + 3 = 11`): a thing to solve, not to evaluate. */
export const isEquation = (text: string): boolean =>
  /=/.test(text) && /\d\s*[a-z](?![a-z\d])|[a-z]\s*(?:\^|²)|(?:^|[^a-z])[a-z]\s*[-+=]/i.test(text.replace(/\d\s*x\s*\d/gi, ''));

/** Every calculation in a text, in order (dates such as 2024-05-01 and times such as 10:30 are skipped). */
export function findCalculations(text: string): Calculation[] {
  if (isEquation(text)) return [];
  const clean = text
    .replace(/\b\d{4}[-./]\d{1,2}[-./]\d{1,2}\b|\b\d{1,2}:\d{2}\b/g, ' ; ')
    // “144의 제곱근”, “3의 제곱”, “2의 세제곱”: the Korean word order puts the operation after the number.
    .replace(/(\d[\d,]*(?:\.\d+)?)\s*의\s*제곱근/g, '√$1')
    .replace(/(\d[\d,]*(?:\.\d+)?)\s*의\s*세제곱/g, '$1³')
    .replace(/(\d[\d,]*(?:\.\d+)?)\s*의\s*제곱/g, '$1²');
  return runsOf(lex(clean)).flatMap((run) => {
    const c = bestIn(run);
    return c ? [c] : [];
  });
}

/** The first calculation in a text, if any. */
export const findCalculation = (text: string): Calculation | undefined => findCalculations(text)[0];
