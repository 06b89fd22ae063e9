import type { BattleInputs, Language } from '@duet/contracts';
import type { ChatRequest } from '../provider.ts';

/**
 * The two demo personas, different in approach and content. `atlas` (GPT-style) is concise and
 * structured: headings, tables, numbered steps, the classic method (the quadratic formula,
 * SUMIF, a journal entry). `sonnet` (Claude-style) is narrative and example-led: it starts from
 * something you can picture or try, uses another method where there is one (factoring,
 * SUMPRODUCT, a year-by-year schedule), and ends with a question. Wherever they pick from a pool
 * (titles, shows, lines, ideas) each takes its own half, so the two never offer the same item.
 */
export type Persona = 'atlas' | 'sonnet';

/** A text in both languages. */
export type Bi<T = string> = Record<Language, T>;

/** What an answer writer sees: the visitor's question plus pickers seeded from it. */
export interface Ctx {
  lang: Language;
  persona: Persona;
  inputs: BattleInputs;
  /** The visitor's free text, trimmed. */
  text: string;
  hasImage: boolean;
  /** A seeded number in [0, 1). */
  rand: () => number;
  pick: <T>(items: readonly T[]) => T;
  /** `n` distinct items in a seeded order. */
  take: <T>(items: readonly T[], n: number) => T[];
  /** This persona's half of a pool (even indexes for atlas, odd for sonnet), so the two never pick the same item. */
  own: <T>(items: readonly T[]) => T[];
}

export type Writer = (c: Ctx) => string;

/** One tool's answers: a writer per persona and language. */
export type ToolWriters = Record<Persona, Record<Language, Writer>>;

export const personaOf = (model: string): Persona => (model === 'sonnet' ? 'sonnet' : 'atlas');

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded generator, so answers never depend on the clock. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of one model's answer to one question. */
export function seedOf(model: string, q: ChatRequest['context']): number {
  const inputs = Object.entries(q.inputs).sort(([a], [b]) => (a < b ? -1 : 1));
  return fnv1a(JSON.stringify([model, q.tool, q.lang, inputs, q.text, q.hasImage]));
}

export function createCtx(model: string, q: ChatRequest['context']): Ctx {
  const persona = personaOf(model);
  const rand = seeded(seedOf(model, q));
  const take = <T>(items: readonly T[], n: number): T[] => {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j] as T, a[i] as T];
    }
    return a.slice(0, n);
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const own = <T>(items: readonly T[]): T[] => items.filter((_, i) => i % 2 === (persona === 'atlas' ? 0 : 1));
  return { lang: q.lang, persona, inputs: q.inputs, text: q.text.trim(), hasImage: q.hasImage, rand, pick, take, own };
}
