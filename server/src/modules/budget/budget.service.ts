import type { BudgetsChange, ModelSpec, RedisKeys, SpendReport } from '@duet/contracts';
import { fromMicroUsd, toMicroUsd } from '@duet/contracts/cost';
import { budgetDay, createBudgetLedger, ledgerSpendOfDay, secondsToNextDay } from '@duet/platform/budget-ledger';
import type { RedisClient } from '@duet/platform/redis-connection';
import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Db } from '../../infra/db.ts';
import { hourSpend } from './budget.repo.ts';

/** How long a gateway keeps the budgets operators set before reading them again. */
const OVERRIDES_TTL_MS = 1_000;

export type Admitted = { ok: true; pair: [ModelSpec, ModelSpec]; day: string } | { ok: false; retryAfterSeconds: number };

/** The budgets in force: overall and per model, in US dollars a day (0: none). */
export interface Budgets {
  overallUsdPerDay: number;
  models: Record<string, number>;
}

export type BudgetService = ReturnType<typeof createBudgetService>;

/**
 * The gateway's side of the budgets: before a battle is stored, it draws two models whose own
 * budgets have room and reserves the worst case of both sides against every budget they touch, in
 * one Redis script (the workers settle each side to its real cost). A model whose own budget is
 * spent leaves the draw; when no two models fit, or the overall budget is spent, the battle is
 * refused until the budget day turns (`BUDGET_TIME_ZONE`).
 */
export function createBudgetService(deps: {
  redis: RedisClient;
  keys: RedisKeys;
  db: Db;
  /** The models budgets are kept for: the live roster's, retired ones aside. */
  roster: () => readonly ModelSpec[];
  /** BUDGET_USD_PER_DAY (0: none). */
  usdPerDay: number;
  timeZone: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const ledger = createBudgetLedger(deps.redis, deps.keys, (day) => ledgerSpendOfDay(deps.db, day, deps.timeZone));
  let overrides: { at: number; values: Promise<Record<string, number>> } | null = null;

  /** What operators set over the settings (`*` and model ids, dollars; 0 removes a budget), read at most once a second. */
  function overridden(): Promise<Record<string, number>> {
    if (!overrides || Date.now() - overrides.at > OVERRIDES_TTL_MS) {
      const values = deps.redis.hgetall(deps.keys.budgetOverrides).then((raw) => Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)])));
      overrides = { at: Date.now(), values };
      values.catch(() => (overrides = null));
    }
    return overrides.values;
  }

  async function budgets(): Promise<Budgets> {
    const set = await overridden();
    return {
      overallUsdPerDay: set['*'] ?? deps.usdPerDay,
      models: Object.fromEntries(deps.roster().map((m) => [m.id, set[m.id] ?? m.budgetUsdPerDay ?? 0])),
    };
  }

  return {
    /**
     * Draws a pair from `candidates` and reserves its worst case (`worstCaseMicroUsd` of each side)
     * in today's budgets, leaving out each model whose own budget turns it away.
     */
    async admit(o: {
      battleId: string;
      candidates: readonly ModelSpec[];
      worstCaseMicroUsd: (model: ModelSpec) => number;
      draw: (pool: readonly ModelSpec[]) => [ModelSpec, ModelSpec];
    }): Promise<Admitted> {
      const at = now();
      const day = budgetDay(at, deps.timeZone);
      const b = await budgets();
      const limit = (m: ModelSpec) => toMicroUsd(b.models[m.id] ?? 0);
      let pool = [...o.candidates];
      while (pool.length >= 2) {
        const pair = o.draw(pool);
        const side = (m: ModelSpec) => ({ model: m.id, amountMicroUsd: o.worstCaseMicroUsd(m), modelLimitMicroUsd: limit(m) });
        const outcome = await ledger.reserve(day, o.battleId, toMicroUsd(b.overallUsdPerDay), { a: side(pair[0]), b: side(pair[1]) });
        if (outcome.ok) return { ok: true, pair, day };
        if (outcome.exhausted === '*') break;
        pool = pool.filter((m) => m.id !== outcome.exhausted);
      }
      return { ok: false, retryAfterSeconds: secondsToNextDay(at, deps.timeZone) };
    },
    /** Gives back a reservation whose battle was not stored after all. */
    release: (day: string, battleId: string) => ledger.close(day, battleId, {}),
    budgets,
    /** Today's budgets and spend in dollars (reserved and settled, `*` for every model), and this hour's. */
    async report(): Promise<SpendReport> {
      const day = budgetDay(now(), deps.timeZone);
      const [totals, b, hour] = await Promise.all([ledger.totals(day), budgets(), hourSpend(deps.db)]);
      const dollars = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fromMicroUsd(v)]));
      return {
        day,
        timeZone: deps.timeZone,
        budgets: b,
        today: { reserved: dollars(totals.reserved), settled: dollars(totals.settled) },
        hour: { start: hour.start.toISOString(), settled: hour.settled },
      };
    },
    /** Today's settled spend and the budgets, in dollars, by model id and `all` (for the metrics). */
    async figures(): Promise<{ spent: Record<string, number>; budgets: Record<string, number> }> {
      const day = budgetDay(now(), deps.timeZone);
      const [totals, b] = await Promise.all([ledger.totals(day), budgets()]);
      const named = (k: string) => (k === '*' ? 'all' : k);
      return {
        spent: Object.fromEntries(Object.entries(totals.settled).map(([k, v]) => [named(k), fromMicroUsd(v)])),
        budgets: { all: b.overallUsdPerDay, ...b.models },
      };
    },
    /** Takes back an operator's override of a model's budget (its own budget was just set in the roster). */
    async clearOverride(modelId: string): Promise<void> {
      await deps.redis.hdel(deps.keys.budgetOverrides, modelId);
      overrides = null;
    },
    /** Sets budgets over the settings for every gateway at once: dollars a day, null to go back to the setting. */
    async setBudgets(change: BudgetsChange, actor: string): Promise<Budgets> {
      const unknown = Object.keys(change.models ?? {}).filter((id) => !deps.roster().some((m) => m.id === id));
      if (unknown.length) throw new AppError(400, 'validation_failed', `No model in the roster is called ${unknown.join(', ')}`);
      const entries: Array<[string, number | null]> = [
        ...(change.overallUsdPerDay !== undefined ? [['*', change.overallUsdPerDay] as [string, number | null]] : []),
        ...Object.entries(change.models ?? {}),
      ];
      const set = entries.filter((e): e is [string, number] => e[1] !== null);
      const unset = entries.filter((e) => e[1] === null).map(([k]) => k);
      const before = await budgets();
      if (set.length) await deps.redis.hset(deps.keys.budgetOverrides, Object.fromEntries(set.map(([k, v]) => [k, String(v)])));
      if (unset.length) await deps.redis.hdel(deps.keys.budgetOverrides, ...unset);
      overrides = null;
      const after = await budgets();
      await recordAudit(deps.db, { actor, action: 'budgets.update', target: null, before, after });
      return after;
    },
  };
}
