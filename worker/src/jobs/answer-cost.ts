import { costMicroUsd, estimateTokens, fromMicroUsd, IMAGE_TOKENS_AT_MOST } from '@duet/contracts/cost';
import type { Prices } from '@duet/contracts/cost';
import type { AnswerStats } from '@duet/contracts';

/**
 * What an answer cost: from the tokens the provider reported, or, where it reported none (a cut
 * stream, a provider without usage), estimated from the characters of the question and of the
 * answer, and marked as estimated. An answer with no text and no usage (refused before its first
 * token) cost nothing the provider reported: 0, estimated. An estimate never passes the request's
 * token cap (`maxOutputTokens`): no provider bills past the `max_tokens` it was sent.
 */
export function answerCost(o: {
  prices: Prices;
  stats: AnswerStats;
  text: string;
  question: readonly string[];
  hasImage: boolean;
  maxOutputTokens: number;
}): { usd: number; estimated: boolean } {
  const { inputTokens, outputTokens } = o.stats;
  if (inputTokens !== null && outputTokens !== null) {
    return { usd: fromMicroUsd(costMicroUsd(o.prices, inputTokens, outputTokens)), estimated: false };
  }
  if (o.text === '' && inputTokens === null && outputTokens === null) return { usd: 0, estimated: true };
  const input = inputTokens ?? o.question.reduce((sum, t) => sum + estimateTokens(t), 0) + (o.hasImage ? IMAGE_TOKENS_AT_MOST : 0);
  const output = outputTokens ?? Math.min(o.maxOutputTokens, estimateTokens(o.text));
  return { usd: fromMicroUsd(costMicroUsd(o.prices, input, output)), estimated: true };
}
