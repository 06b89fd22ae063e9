import type { ModelSpec } from '@duet/contracts';
import type { ModelProvider } from './provider.ts';

/** Builds the id → adapter lookup for a roster. */
export function providerLookup(roster: readonly ModelSpec[], create: (spec: ModelSpec) => ModelProvider) {
  const providers = new Map(roster.map((m) => [m.id, create(m)]));
  return (modelId: string) => providers.get(modelId);
}
