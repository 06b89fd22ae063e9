/**
 * A circuit breaker per model, shared by every process through Redis: workers report each side's
 * outcome, gateways leave an open model out of the draw. Past a failure share over a sliding window
 * (`BREAKER_*`) a model opens; after a cool-down one battle probes it, and that battle's outcome
 * closes the breaker or opens it again.
 *
 * Written over Redis rather than with `cockatiel` or `opossum`: those keep a breaker's window and
 * state in one process's memory, and here every worker's outcomes must count toward one window and
 * every gateway must see one state. The window is a ring of 10-second buckets; every key carries
 * the `{breaker}` hash tag, so each script runs on a Redis Cluster too.
 */
import type { RedisKeys } from '@duet/contracts';
import { z } from 'zod';
import type { RedisClient } from './redis-connection.ts';

const BUCKET_MS = 10_000;

/** How long a probe battle may take to report before another may be sent. */
const PROBE_TTL_MS = 5 * 60_000;

/** The breaker settings gateway and worker both read. */
export const ZBreakerEnvSchema = z.object({
  /** `on`: failing models leave the draw by themselves; `off`: every roster model is always drawn. */
  BREAKER: z.enum(['on', 'off']).default('on'),
  /** The share of a model's sides that must fail within the window to take it out of the draw. */
  BREAKER_FAILURE_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
  /** Sides a model must have had in the window before its share counts. */
  BREAKER_MIN_SIDES: z.coerce.number().int().min(1).default(10),
  /** The sliding window the failure share is counted over, in seconds (a multiple of 10 is exact). */
  BREAKER_WINDOW_SECONDS: z.coerce.number().int().min(10).max(3_600).default(120),
  /** How long an opened model stays out before one battle probes it, in seconds. */
  BREAKER_COOLDOWN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
});

export interface BreakerSettings {
  enabled: boolean;
  failureShare: number;
  minSides: number;
  windowMs: number;
  cooldownMs: number;
}

export const breakerSettings = (e: z.infer<typeof ZBreakerEnvSchema>): BreakerSettings => ({
  enabled: e.BREAKER === 'on',
  failureShare: e.BREAKER_FAILURE_SHARE,
  minSides: e.BREAKER_MIN_SIDES,
  windowMs: e.BREAKER_WINDOW_SECONDS * 1_000,
  cooldownMs: e.BREAKER_COOLDOWN_SECONDS * 1_000,
});

/**
 * Records one outcome: KEYS states, then the window's buckets, newest first; ARGV model, `ok` or
 * `fail`, now, min sides, failure share (per mille), cool-down, bucket time to live. A model being
 * probed is decided by this outcome; an open one ignores outcomes of battles drawn before it
 * opened. Answers what became of the breaker: `closed`, `open` (it was and stays open), `opened`,
 * `recovered` (the probe answered).
 */
const RECORD = `
local model, outcome, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local state = redis.call('HGET', KEYS[1], model)
if state and string.sub(state, 1, 5) == 'probe' then
  if outcome == 'ok' then
    redis.call('HDEL', KEYS[1], model)
    for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
    return 'recovered'
  end
  redis.call('HSET', KEYS[1], model, 'open|' .. (now + tonumber(ARGV[6])))
  return 'opened'
end
if state then return 'open' end
redis.call('HINCRBY', KEYS[2], outcome, 1)
redis.call('PEXPIRE', KEYS[2], ARGV[7])
local ok, fail = 0, 0
for i = 2, #KEYS do
  ok = ok + tonumber(redis.call('HGET', KEYS[i], 'ok') or '0')
  fail = fail + tonumber(redis.call('HGET', KEYS[i], 'fail') or '0')
end
if ok + fail >= tonumber(ARGV[4]) and fail * 1000 >= tonumber(ARGV[5]) * (ok + fail) then
  redis.call('HSET', KEYS[1], model, 'open|' .. (now + tonumber(ARGV[6])))
  return 'opened'
end
return 'closed'`;

/** Takes the probe of a model whose cool-down has passed: KEYS states; ARGV model, now, probe time to live. 1 if this caller probes. */
const TAKE_PROBE = `
local state = redis.call('HGET', KEYS[1], ARGV[1])
if not state then return 0 end
local bar = string.find(state, '|', 1, true)
if tonumber(string.sub(state, bar + 1)) > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 'probe|' .. (tonumber(ARGV[2]) + tonumber(ARGV[3])))
return 1`;

/** What one outcome did to a model's breaker. */
export type BreakerChange = 'closed' | 'open' | 'opened' | 'recovered';

/** A model's breaker that is not closed: open until a time, or probing (until the probe may be sent again). */
export interface BreakerState {
  state: 'open' | 'probing';
  until: number;
}

export interface ModelBreaker {
  /** A side's outcome (`fail` only for the provider's failures, never for a visitor's bad request). */
  record: (model: string, outcome: 'ok' | 'fail') => Promise<BreakerChange>;
  /** Every model's state that is not closed. */
  states: () => Promise<Record<string, BreakerState>>;
  /** Takes the one probe of a model whose cool-down is over; false when another caller took it, or it is not due. */
  takeProbe: (model: string) => Promise<boolean>;
  /** The window's count of a model's sides, ok and failed. */
  window: (model: string) => Promise<{ ok: number; failed: number }>;
}

/** The breaker of `BREAKER=off`: every model closed, no outcome kept. */
const NEVER_OPEN: ModelBreaker = {
  record: async () => 'closed',
  states: async () => ({}),
  takeProbe: async () => false,
  window: async () => ({ ok: 0, failed: 0 }),
};

export function createModelBreaker(redis: RedisClient, keys: RedisKeys, settings: BreakerSettings, now: () => number = Date.now): ModelBreaker {
  if (!settings.enabled) return NEVER_OPEN;
  redis.defineCommand('duetBreakerRecord', { lua: RECORD });
  redis.defineCommand('duetBreakerTakeProbe', { numberOfKeys: 1, lua: TAKE_PROBE });
  // `defineCommand` adds the methods at run time (EVALSHA, not the script's text every time); ioredis's types cannot know them.
  const scripts = redis as unknown as {
    duetBreakerRecord: (numberOfKeys: number, ...args: Array<string | number>) => Promise<BreakerChange>;
    duetBreakerTakeProbe: (key: string, ...args: Array<string | number>) => Promise<number>;
  };
  const buckets = (model: string, at: number) => {
    const newest = Math.floor(at / BUCKET_MS);
    const count = Math.max(1, Math.round(settings.windowMs / BUCKET_MS));
    return Array.from({ length: count }, (_, i) => keys.breakerBucket(model, newest - i));
  };
  return {
    async record(model, outcome) {
      const at = now();
      const window = buckets(model, at);
      return scripts.duetBreakerRecord(
        1 + window.length,
        keys.breakerStates,
        ...window,
        model,
        outcome,
        at,
        settings.minSides,
        Math.round(settings.failureShare * 1000),
        settings.cooldownMs,
        settings.windowMs + BUCKET_MS,
      );
    },
    async states() {
      const raw = await redis.hgetall(keys.breakerStates);
      return Object.fromEntries(
        Object.entries(raw).map(([model, value]) => {
          const [kind, until] = value.split('|');
          const state: BreakerState = { state: kind === 'probe' ? 'probing' : 'open', until: Number(until) };
          return [model, state];
        }),
      );
    },
    takeProbe: async (model) => (await scripts.duetBreakerTakeProbe(keys.breakerStates, model, now(), PROBE_TTL_MS)) === 1,
    async window(model) {
      const counts = await Promise.all(buckets(model, now()).map((key) => redis.hmget(key, 'ok', 'fail')));
      return counts.reduce((sum, [ok, fail]) => ({ ok: sum.ok + Number(ok ?? 0), failed: sum.failed + Number(fail ?? 0) }), { ok: 0, failed: 0 });
    },
  };
}
