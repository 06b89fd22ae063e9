import type { ModelHealthReport, ModelSpec } from '@duet/contracts';
import type { BreakerSettings, BreakerState, ModelBreaker } from '@duet/platform/model-breaker';
import type { RosterStore } from '@duet/platform/roster-store';
import type { Logger } from 'pino';

/** How long a gateway draws from the breaker states it last read. */
const STATES_TTL_MS = 1_000;

/** Who may be drawn for the next battle. */
export interface DrawPool {
  /** The models whose breaker is closed, plus the probe. */
  pool: ModelSpec[];
  /** A model back from its cool-down that this battle must include: its outcome decides whether it stays. */
  probe: ModelSpec | null;
  /** When too few models can be drawn: seconds until the first cool-down ends. */
  retryAfterSeconds: number;
}

export type ModelHealthService = ReturnType<typeof createModelHealthService>;

/**
 * The gateway's side of the models' circuit breaker: which models a battle may be drawn from. The
 * workers report each side's outcome; a model whose breaker is open is left out of the draw, and
 * once its cool-down is over the first battle to take the probe includes it.
 */
export function createModelHealthService(deps: {
  breaker: ModelBreaker;
  /** The live roster: battles are drawn from its drawable models. */
  roster: Pick<RosterStore, 'drawable' | 'all'>;
  settings: BreakerSettings;
  logger: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let cached: { at: number; states: Promise<Record<string, BreakerState>> } | null = null;
  const states = (): Promise<Record<string, BreakerState>> => {
    const at = now();
    if (!cached || at - cached.at >= STATES_TTL_MS) {
      const read = deps.breaker.states();
      cached = { at, states: read };
      // A failed read is not kept: the next battle asks again.
      read.catch(() => {
        if (cached?.states === read) cached = null;
      });
    }
    return cached.states;
  };

  return {
    /** The models the next battle may be drawn from. When Redis cannot be read, every model: the breaker never stops battles itself. */
    async drawPool(): Promise<DrawPool> {
      let open: Record<string, BreakerState>;
      try {
        open = await states();
      } catch (err) {
        deps.logger.warn({ err }, 'could not read the models’ breakers; drawing from every model');
        return { pool: [...deps.roster.drawable()], probe: null, retryAfterSeconds: 0 };
      }
      const at = now();
      const drawable = deps.roster.drawable();
      const closed = drawable.filter((m) => !open[m.id]);
      let probe: ModelSpec | null = null;
      for (const m of drawable) {
        const s = open[m.id];
        if (s && s.until <= at && (await deps.breaker.takeProbe(m.id).catch(() => false))) {
          probe = m;
          cached = null;
          deps.logger.info({ model: m.id }, 'probing a model after its cool-down');
          break;
        }
      }
      const until = drawable.map((m) => open[m.id]?.until ?? Infinity).reduce((a, b) => Math.min(a, b), Infinity);
      const retryAfterSeconds = Number.isFinite(until) ? Math.max(1, Math.ceil((until - at) / 1_000)) : Math.ceil(deps.settings.cooldownMs / 1_000);
      return { pool: probe ? [...closed, probe] : closed, probe, retryAfterSeconds };
    },
    /** The models of the roster a battle may have (enabled, not retired), whatever their breakers say. */
    drawable: (): readonly ModelSpec[] => deps.roster.drawable(),
    /** Every enabled model: 1 when it can be drawn, 0 while its breaker is open (for the metrics). */
    async available(): Promise<Record<string, number>> {
      const open = await deps.breaker.states();
      return Object.fromEntries(deps.roster.drawable().map((m) => [m.id, open[m.id] ? 0 : 1]));
    },
    /** Each model's breaker and window (retired ones aside), for the operators. */
    async report(): Promise<ModelHealthReport> {
      const models = deps.roster.all().filter((m) => !m.retired);
      const [open, windows] = await Promise.all([deps.breaker.states(), Promise.all(models.map((m) => deps.breaker.window(m.id)))]);
      return {
        models: models.map((m, i) => {
          const s = open[m.id];
          return { id: m.id, label: m.label, state: s?.state ?? 'closed', until: s ? new Date(s.until).toISOString() : null, window: windows[i] ?? { ok: 0, failed: 0 } };
        }),
        settings: {
          enabled: deps.settings.enabled,
          failureShare: deps.settings.failureShare,
          minSides: deps.settings.minSides,
          windowSeconds: deps.settings.windowMs / 1_000,
          cooldownSeconds: deps.settings.cooldownMs / 1_000,
        },
      };
    },
  };
}
