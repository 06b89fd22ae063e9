import { describe, expect, it } from 'vitest';
import { costMicroUsd, estimateTokens, IMAGE_TOKENS_AT_MOST, inputTokensAtMost, toMicroUsd } from './cost.ts';

const GPT_4O = { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 };

describe('cost', () => {
  it('prices tokens per million, rounded up to the micro-dollar', () => {
    // 300 in and 800 out at GPT-4o's list prices: $0.00075 + $0.008.
    expect(costMicroUsd(GPT_4O, 300, 800)).toBe(8_750);
    expect(costMicroUsd(GPT_4O, 1, 0)).toBe(3);
    expect(costMicroUsd({ inputUsdPerMTok: 0, outputUsdPerMTok: 0 }, 10_000, 10_000)).toBe(0);
    expect(toMicroUsd(0.1 + 0.2)).toBe(300_000);
  });

  it('bounds a question’s input tokens by its UTF-8 bytes, framing and the image', () => {
    expect(inputTokensAtMost(['abc'], false)).toBe(3 + 32);
    // A Hangul syllable is three bytes: never fewer bytes than tokens.
    expect(inputTokensAtMost(['한국어', 'x'], true)).toBe(9 + 1 + 64 + IMAGE_TOKENS_AT_MOST);
  });

  it('estimates tokens from characters, a wide character a token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('The sky is blue.')).toBe(4);
    expect(estimateTokens('하늘은 파랗다')).toBe(6 + 1);
  });
});
