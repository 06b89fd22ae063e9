/**
 * What an answer costs, from its model's prices (US dollars per million tokens). Budgets count in
 * micro-dollars, whole numbers, so that Redis adds them exactly; an amount is rounded up to the
 * next micro-dollar, never down.
 */
import type { ModelSpec } from './roster.ts';

/** A model's prices; an unpriced model is free. */
export interface Prices {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
}

export const pricesOf = (m: Pick<ModelSpec, 'inputUsdPerMTok' | 'outputUsdPerMTok'>): Prices => ({
  inputUsdPerMTok: m.inputUsdPerMTok ?? 0,
  outputUsdPerMTok: m.outputUsdPerMTok ?? 0,
});

export const isPriced = (m: Pick<ModelSpec, 'inputUsdPerMTok' | 'outputUsdPerMTok'>): boolean =>
  (m.inputUsdPerMTok ?? 0) > 0 || (m.outputUsdPerMTok ?? 0) > 0;

/** Micro-dollars in a dollar amount, rounded up (a hair of float error is not a micro-dollar more). */
export const toMicroUsd = (usd: number): number => Math.max(0, Math.ceil(usd * 1_000_000 - 1e-6));

/** Dollars in micro-dollars. */
export const fromMicroUsd = (micro: number): number => micro / 1_000_000;

/** What `inputTokens` in and `outputTokens` out cost at `prices`, in micro-dollars. */
export function costMicroUsd(prices: Prices, inputTokens: number, outputTokens: number): number {
  return toMicroUsd((inputTokens * prices.inputUsdPerMTok + outputTokens * prices.outputUsdPerMTok) / 1_000_000);
}

/**
 * The most tokens a question can be sent as: a byte-level tokenizer (GPT's and Claude's) never
 * makes more tokens than the text has UTF-8 bytes; each message adds a few tokens of framing.
 */
const FRAMING_TOKENS = 32;

/**
 * The most tokens one image can count as input: the gateway caps its long side at 2,048 px, which
 * OpenAI's high detail bills as at most 8 tiles (1,445 tokens) and Anthropic as at most about
 * 1,600 (its long side scaled to 1,568 px, width × height / 750).
 */
export const IMAGE_TOKENS_AT_MOST = 1_600;

/** An upper bound of the input tokens of a question made of `texts` (system and user prompt), with or without an image. */
export function inputTokensAtMost(texts: readonly string[], hasImage: boolean): number {
  const bytes = texts.reduce((sum, t) => sum + new TextEncoder().encode(t).length, 0);
  return bytes + FRAMING_TOKENS * texts.length + (hasImage ? IMAGE_TOKENS_AT_MOST : 0);
}

/** Hangul, kana and CJK ideographs: about one token each; other text about four characters a token. */
const WIDE = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/** A likely token count of `text`, for an answer whose provider reported no usage (it is marked as estimated). */
export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}
