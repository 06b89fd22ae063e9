import type { ModelSpec, RosterModel } from '@duet/contracts';
import { pricesOf } from '@duet/contracts/cost';
import type { Prices } from '@duet/contracts/cost';
import type { ModelProvider } from './provider.ts';

/** What the lookups read: the live roster (`roster-store.ts`), or a fixed list. */
export interface RosterView {
  find: (id: string) => ModelSpec | RosterModel | undefined;
  /** Reads the roster again: a battle names a model this process has not seen yet. */
  refresh?: () => Promise<void>;
}

/** A fixed list as a roster view (tests, benchmarks). */
export const fixedRoster = (models: readonly ModelSpec[]): RosterView => ({ find: (id) => models.find((m) => m.id === id) });

/** Whether two specs reach the same model the same way (an adapter made for one serves the other). */
const sameConnection = (a: ModelSpec, b: ModelSpec) =>
  a.provider === b.provider && a.model === b.model && a.baseURL === b.baseURL && a.apiKeyEnv === b.apiKeyEnv;

/**
 * The id → adapter lookup: whatever state the model is in now (a battle drawn before a model was
 * disabled or retired runs with it), made once per model and again if how it is reached changes.
 * A model the roster lacks is read again once, then answered undefined.
 */
export function providerLookup(roster: RosterView, create: (spec: ModelSpec) => ModelProvider) {
  const made = new Map<string, { spec: ModelSpec; provider: ModelProvider }>();
  return async (modelId: string): Promise<ModelProvider | undefined> => {
    let spec = roster.find(modelId);
    if (!spec && roster.refresh) {
      await roster.refresh().catch(() => undefined);
      spec = roster.find(modelId);
    }
    if (!spec) return undefined;
    const kept = made.get(modelId);
    if (kept && sameConnection(kept.spec, spec)) return kept.provider;
    const provider = create(spec);
    made.set(modelId, { spec, provider });
    return provider;
  };
}

/** The id → prices lookup, at the roster's prices now; a model it lacks is free (this worker never runs it). */
export function pricesOfRoster(roster: RosterView): (modelId: string) => Prices {
  return (modelId) => {
    const spec = roster.find(modelId);
    return spec ? pricesOf(spec) : { inputUsdPerMTok: 0, outputUsdPerMTok: 0 };
  };
}
