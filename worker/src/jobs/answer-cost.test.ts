import { describe, expect, it } from 'vitest';
import { answerCost } from './answer-cost.ts';

const GPT_4O = { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 };
const stats = (inputTokens: number | null, outputTokens: number | null) => ({ finishReason: 'stop' as const, inputTokens, outputTokens, ttftMs: 1, durationMs: 2 });

describe('answerCost', () => {
  it('prices the usage the provider reported', () => {
    expect(answerCost({ prices: GPT_4O, stats: stats(300, 800), text: 'x', question: ['q'], hasImage: false, maxOutputTokens: 1_000 })).toEqual({ usd: 0.00875, estimated: false });
  });

  it('estimates from characters what the provider did not report, and says so', () => {
    // Question: 8 + 4 characters, 3 tokens; answer: 40 characters, 10 tokens.
    const cost = answerCost({ prices: GPT_4O, stats: stats(null, null), text: 'a'.repeat(40), question: ['system!!', 'user'], hasImage: false, maxOutputTokens: 1_000 });
    // $0.0001075, rounded up to the micro-dollar.
    expect(cost).toEqual({ usd: 0.000108, estimated: true });
    // Reported input, missing output.
    expect(answerCost({ prices: GPT_4O, stats: stats(100, null), text: 'a'.repeat(40), question: ['q'], hasImage: false, maxOutputTokens: 1_000 }).estimated).toBe(true);
  });

  it('never estimates more output than the request’s token cap', () => {
    const cost = answerCost({ prices: GPT_4O, stats: stats(0, null), text: 'a'.repeat(4_000), question: ['q'], hasImage: false, maxOutputTokens: 100 });
    expect(cost).toEqual({ usd: 0.001, estimated: true });
  });

  it('counts nothing for a side refused before its first token', () => {
    expect(answerCost({ prices: GPT_4O, stats: { ...stats(null, null), finishReason: 'error' }, text: '', question: ['q'], hasImage: true, maxOutputTokens: 1_000 })).toEqual({ usd: 0, estimated: true });
  });
});
