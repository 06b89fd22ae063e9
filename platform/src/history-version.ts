/**
 * A tool's history version (`redisKeys(prefix).historyVersion(tool)`): whoever changes what a
 * tool's history pages show raises it once the change has committed, and gateways stop serving
 * the pages they rendered before (server/src/modules/history/history-cache.ts). A raise that is
 * lost (Redis away) leaves those pages served until they expire, 10 s after they were rendered.
 */
import { isCluster } from './redis-connection.ts';
import type { RedisClient } from './redis-connection.ts';
import type { RedisKeys } from '@duet/contracts/redis-keys';

/** How long a gateway keeps a rendered page at most: the bound on a page left stale by a lost raise. */
export const HISTORY_CACHE_TTL_MS = 10_000;

/** `INCR` of every key given, their new values in order. */
const RAISE_ALL = "local counts = {} for i, key in ipairs(KEYS) do counts[i] = redis.call('INCR', key) end return counts";

/** A version to start from: far from any a counter that started at a random number of this size reaches. */
export const freshHistoryVersion = (): string => String(Math.floor(Math.random() * 2 ** 47));

/**
 * Adds one to each tool's version, in one write to a single Redis. A version Redis no longer had
 * (restarted empty, failed over to a replica that missed it) comes back from `INCR` as 1, which
 * pages kept before may be under: it is started again from a random number at once.
 */
export async function raiseHistoryVersions(redis: RedisClient, keys: RedisKeys, tools: readonly string[]): Promise<void> {
  if (tools.length === 0) return;
  const names = tools.map((tool) => keys.historyVersion(tool));
  // On a single Redis, one command raises them all (an ioredis pipeline copies every script the
  // client defined each time one is made, a cost every vote would pay). A cluster's keys
  // live on several nodes: there, one command each.
  const counts = isCluster(redis) ? await Promise.all(names.map((key) => redis.incr(key))) : ((await redis.eval(RAISE_ALL, names.length, ...names)) as number[]);
  await Promise.all(names.filter((_, i) => counts[i] === 1).map((key) => redis.set(key, freshHistoryVersion())));
}

/** One tool's raise. */
export const raiseHistoryVersion = (redis: RedisClient, keys: RedisKeys, tool: string): Promise<void> => raiseHistoryVersions(redis, keys, [tool]);
