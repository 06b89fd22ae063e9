/**
 * The budgets' ledger in Redis, shared by every gateway (which reserves a battle's worst case
 * before storing it) and every worker (which settles each side to its real cost once it is stored,
 * and releases what a battle did not use). Amounts are whole micro-dollars; each change is one
 * script, so admissions on any number of gateways never overspend a budget together. A day's keys
 * share one hash tag (the day), so the scripts run on a Redis Cluster too.
 *
 * Fields of a day's totals: `r:*` and `s:*` (reserved and settled, every model), `r:<model>` and
 * `s:<model>`. A battle's reservation: `a` and `b`, each `<model>|<micro-dollars>`, until settled.
 */
import type { RedisKeys, Side } from '@duet/contracts';
import type { Db } from './pg-pool.ts';
import type { RedisClient } from './redis-connection.ts';

/** How long a day's keys outlive it (the worker settles what ran past midnight). */
const DAY_KEYS_TTL_SECONDS = 3 * 86_400;

/**
 * Reserves both sides of a battle if every budget they touch has room: KEYS totals, battle record,
 * open set; ARGV overall limit (0: none), then per side model, amount, model limit (0: none), then
 * the battle id, the time (ms) and the keys' time to live. Answers `ok`, `missing` (the day's
 * totals are not in Redis: seed them first) or the budget that has no room (`*` or a model).
 */
const RESERVE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
local function used(f)
  return tonumber(redis.call('HGET', KEYS[1], 'r:' .. f) or '0') + tonumber(redis.call('HGET', KEYS[1], 's:' .. f) or '0')
end
local overall = tonumber(ARGV[1])
local ma, aa, la = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local mb, ab, lb = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
if overall > 0 and used('*') + aa + ab > overall then return '*' end
if la > 0 and used(ma) + aa > la then return ma end
if lb > 0 and used(mb) + ab > lb then return mb end
redis.call('HINCRBY', KEYS[1], 'r:*', aa + ab)
redis.call('HINCRBY', KEYS[1], 'r:' .. ma, aa)
redis.call('HINCRBY', KEYS[1], 'r:' .. mb, ab)
redis.call('HSET', KEYS[2], 'a', ma .. '|' .. aa, 'b', mb .. '|' .. ab)
redis.call('EXPIRE', KEYS[2], ARGV[10])
redis.call('ZADD', KEYS[3], ARGV[9], ARGV[8])
redis.call('EXPIRE', KEYS[3], ARGV[10])
redis.call('EXPIRE', KEYS[1], ARGV[10])
return 'ok'`;

/**
 * Settles sides of a battle: for each (side, cost) pair in ARGV whose reservation is still open, its
 * reservation leaves `r:` and its cost joins `s:`; a side settled before is left alone, so a retry
 * settles nothing twice. With `all` as the first argument, every side still reserved is settled (at
 * the cost given for it, else 0) and the battle leaves the open set. KEYS totals, battle record,
 * open set; ARGV[1] `all` or `some`, ARGV[2] the battle id, then side, cost pairs. Answers the sides
 * still reserved afterwards.
 */
const SETTLE = `
local costs = {}
for i = 3, #ARGV, 2 do costs[ARGV[i]] = tonumber(ARGV[i + 1]) end
local function settle(side, record)
  local bar = string.find(record, '|', 1, true)
  local model, amount = string.sub(record, 1, bar - 1), tonumber(string.sub(record, bar + 1))
  local cost = costs[side] or 0
  redis.call('HINCRBY', KEYS[1], 'r:*', -amount)
  redis.call('HINCRBY', KEYS[1], 'r:' .. model, -amount)
  redis.call('HINCRBY', KEYS[1], 's:*', cost)
  redis.call('HINCRBY', KEYS[1], 's:' .. model, cost)
  redis.call('HDEL', KEYS[2], side)
end
for _, side in ipairs({'a', 'b'}) do
  local record = redis.call('HGET', KEYS[2], side)
  if record and (ARGV[1] == 'all' or costs[side] ~= nil) then settle(side, record) end
end
if ARGV[1] == 'all' then redis.call('ZREM', KEYS[3], ARGV[2]) end
return redis.call('HKEYS', KEYS[2])`;

/** Sets each given settled total to at least the given amount: KEYS totals; ARGV field, amount pairs. */
const AT_LEAST = `
for i = 1, #ARGV, 2 do
  local now = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  if now < tonumber(ARGV[i + 1]) then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return 1`;

/** One side of a battle to reserve: its model, its worst case, and that model's own budget (0: none). */
export interface SideReservation {
  model: string;
  amountMicroUsd: number;
  modelLimitMicroUsd: number;
}

/** A day's reserved and settled micro-dollars, overall (`*`) and per model. */
export interface DayTotals {
  reserved: Record<string, number>;
  settled: Record<string, number>;
}

export type ReserveOutcome = { ok: true } | { ok: false; exhausted: '*' | string };

export interface BudgetLedger {
  /** Reserves a battle's two sides in `day`, or says which budget has no room. */
  reserve: (day: string, battleId: string, overallLimitMicroUsd: number, sides: Record<Side, SideReservation>) => Promise<ReserveOutcome>;
  /** Settles the sides given at their costs (micro-dollars); a side settled before is left alone. */
  settle: (day: string, battleId: string, costs: Partial<Record<Side, number>>) => Promise<void>;
  /** Settles whatever the battle still has reserved, at the costs given (else 0), and closes it. */
  close: (day: string, battleId: string, costs: Partial<Record<Side, number>>) => Promise<void>;
  /** The sides a battle still has reserved. */
  openSides: (day: string, battleId: string) => Promise<Side[]>;
  /** Battles of `day` reserved before `beforeMs` and not closed yet. */
  openBattles: (day: string, beforeMs: number) => Promise<string[]>;
  totals: (day: string) => Promise<DayTotals>;
  /** Raises the day's settled totals to at least these (PostgreSQL's ledger, after Redis lost some). */
  settledAtLeast: (day: string, settled: Record<string, number>) => Promise<void>;
}

const keyOf = (keys: RedisKeys) => ({
  totals: (day: string) => keys.budgetTotals(day),
  battle: (day: string, battleId: string) => keys.budgetBattle(day, battleId),
  open: (day: string) => keys.budgetOpen(day),
});

/**
 * The ledger over `redis`. `seed` gives a day's settled spend from PostgreSQL when Redis has no
 * totals for it (a new day, or a Redis that lost its data): the budgets then start from what was
 * really spent, not from nothing.
 */
export function createBudgetLedger(redis: RedisClient, keys: RedisKeys, seed: (day: string) => Promise<Record<string, number>>): BudgetLedger {
  redis.defineCommand('duetBudgetReserve', { numberOfKeys: 3, lua: RESERVE });
  redis.defineCommand('duetBudgetSettle', { numberOfKeys: 3, lua: SETTLE });
  redis.defineCommand('duetBudgetAtLeast', { numberOfKeys: 1, lua: AT_LEAST });
  // `defineCommand` adds the methods at run time (EVALSHA, not the script's text every time); ioredis's types cannot know them.
  const scripts = redis as unknown as {
    duetBudgetReserve: (k1: string, k2: string, k3: string, ...args: Array<string | number>) => Promise<string>;
    duetBudgetSettle: (k1: string, k2: string, k3: string, ...args: Array<string | number>) => Promise<Side[]>;
    duetBudgetAtLeast: (k1: string, ...args: Array<string | number>) => Promise<number>;
  };
  const k = keyOf(keys);

  const settledAtLeast = async (day: string, settled: Record<string, number>) => {
    const args = Object.entries(settled).flatMap(([model, micro]) => [`s:${model}`, Math.ceil(micro)]);
    // The totals exist from here on, even with nothing spent yet: `r:*` at 0 marks them seeded.
    await redis.hsetnx(k.totals(day), 'r:*', 0);
    if (args.length) await scripts.duetBudgetAtLeast(k.totals(day), ...args);
    await redis.expire(k.totals(day), DAY_KEYS_TTL_SECONDS);
  };

  const settleArgs = (costs: Partial<Record<Side, number>>) =>
    Object.entries(costs).flatMap(([side, micro]) => (micro === undefined ? [] : [side, Math.max(0, Math.ceil(micro))]));

  return {
    async reserve(day, battleId, overallLimit, sides) {
      const run = () =>
        scripts.duetBudgetReserve(
          k.totals(day),
          k.battle(day, battleId),
          k.open(day),
          overallLimit,
          sides.a.model,
          sides.a.amountMicroUsd,
          sides.a.modelLimitMicroUsd,
          sides.b.model,
          sides.b.amountMicroUsd,
          sides.b.modelLimitMicroUsd,
          battleId,
          Date.now(),
          DAY_KEYS_TTL_SECONDS,
        );
      let outcome = await run();
      if (outcome === 'missing') {
        await settledAtLeast(day, await seed(day));
        outcome = await run();
      }
      if (outcome === 'ok') return { ok: true };
      if (outcome === 'missing') throw new Error(`the budget totals of ${day} vanished while being seeded`);
      return { ok: false, exhausted: outcome };
    },
    async settle(day, battleId, costs) {
      await scripts.duetBudgetSettle(k.totals(day), k.battle(day, battleId), k.open(day), 'some', battleId, ...settleArgs(costs));
    },
    async close(day, battleId, costs) {
      await scripts.duetBudgetSettle(k.totals(day), k.battle(day, battleId), k.open(day), 'all', battleId, ...settleArgs(costs));
    },
    openSides: async (day, battleId) => (await redis.hkeys(k.battle(day, battleId))) as Side[],
    openBattles: (day, beforeMs) => redis.zrangebyscore(k.open(day), '-inf', beforeMs),
    async totals(day) {
      const fields = await redis.hgetall(k.totals(day));
      const totals: DayTotals = { reserved: {}, settled: {} };
      for (const [field, value] of Object.entries(fields)) {
        const target = field.startsWith('r:') ? totals.reserved : field.startsWith('s:') ? totals.settled : null;
        if (target) target[field.slice(2)] = Number(value);
      }
      return totals;
    },
    settledAtLeast,
  };
}

/** The budget day `at` falls in, in `timeZone` (`YYYY-MM-DD`). */
export function budgetDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** Seconds from `at` to the next midnight in `timeZone`: when a spent budget has room again. */
export function secondsToNextDay(at: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const elapsed = Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  return Math.max(1, 86_400 - elapsed);
}

/**
 * A budget day's spend as PostgreSQL's ledger has it (micro-dollars, per model and `*`): what the
 * Redis totals start from when Redis has none for the day, and are checked against by the sweeper.
 */
export async function ledgerSpendOfDay(db: Db, day: string, timeZone: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ model: string; usd: string }>(
    `SELECT model, usd FROM spend_ledger WHERE period = 'day' AND period_start = ($1::date)::timestamp AT TIME ZONE $2`,
    [day, timeZone],
  );
  const spend: Record<string, number> = { '*': 0 };
  for (const r of rows) {
    const micro = Math.ceil(Number(r.usd) * 1_000_000 - 1e-6);
    spend[r.model] = micro;
    spend['*'] = (spend['*'] ?? 0) + micro;
  }
  return spend;
}
