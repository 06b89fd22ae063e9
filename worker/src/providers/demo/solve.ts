/**
 * Answers what can be checked in a question, part by part: calculations are worked out, known
 * facts looked up, and anything else is marked unknown so the models say so instead of guessing.
 */
import type { Language } from '@duet/contracts';
import type { Calculation } from './arithmetic.ts';
import { findCalculations } from './arithmetic.ts';
import type { Fact } from './facts.ts';
import { factFor, partsOf } from './facts.ts';

export type Solved =
  | { kind: 'calc'; calc: Calculation; answer: string }
  | { kind: 'fact'; fact: Fact; answer: string }
  | { kind: 'unknown' };

/** One answer per part of the question (a part with two calculations gives two). */
export function solveParts(text: string, lang: Language): Solved[] {
  return partsOf(text, lang).flatMap((part): Solved[] => {
    const calcs = findCalculations(part);
    const fact = factFor(part);
    const out: Solved[] = [];
    if (fact) out.push({ kind: 'fact', fact, answer: fact.answer[lang] });
    for (const calc of calcs) out.push({ kind: 'calc', calc, answer: calc.approx ? `≈ ${calc.text}` : calc.text });
    return out.length ? out : [{ kind: 'unknown' }];
  });
}

/** `a + b = c` checked backwards (`c − b = a`), for a simple sum or product; undefined otherwise. */
export function checkBackwards(calc: Calculation): string | undefined {
  const m = /^(-?[\d,.]+) ([+×]) (-?[\d,.]+)$/.exec(calc.expr);
  if (!m || calc.approx) return undefined;
  const [, a, op, b] = m;
  if (op === '×' && Number(b?.replace(/,/g, '')) === 0) return undefined;
  return op === '+' ? `${calc.text} − ${b} = ${a}` : `${calc.text} ÷ ${b} = ${a}`;
}
