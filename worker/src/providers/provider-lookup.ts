import type { ModelSpec } from '@duet/contracts';
import { pricesOf } from '@duet/contracts/cost';
import type { Prices } from '@duet/contracts/cost';
import type { ModelProvider } from './provider.ts';

/** Builds the id → adapter lookup for a roster. */
export function providerLookup(roster: readonly ModelSpec[], create: (spec: ModelSpec) => ModelProvider) {
  const providers = new Map(roster.map((m) => [m.id, create(m)]));
  return (modelId: string) => providers.get(modelId);
}

/** The id → prices lookup for a roster; a model it lacks is free (this worker never runs it). */
export function pricesOfRoster(roster: readonly ModelSpec[]): (modelId: string) => Prices {
  const prices = new Map(roster.map((m) => [m.id, pricesOf(m)]));
  return (modelId) => prices.get(modelId) ?? { inputUsdPerMTok: 0, outputUsdPerMTok: 0 };
}
