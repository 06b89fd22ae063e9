import type { RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';

/** Keeps the lease while it is ours; takes it back if Redis lost it (a restart); 0 if another worker has it. */
const RENEW = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface BattleLeases {
  /** Takes the battle for this worker; false when another worker holds it. `onLost` runs if it is taken away. */
  claim: (battleId: string, onLost: () => void) => Promise<boolean>;
  release: (battleId: string) => Promise<void>;
  stop: () => void;
}

/**
 * A lease per running battle in Redis, renewed every quarter of its time to live. BullMQ's job
 * lock says the same while Redis keeps its data; the lease also survives a Redis restart (the
 * running worker writes it again), so the sweeper never hands a running battle to a second worker.
 */
export function createBattleLeases(redis: RedisClient, keys: RedisKeys, owner: string, ttlMs: number): BattleLeases {
  const held = new Map<string, () => void>();
  redis.defineCommand('duetRenewLease', { numberOfKeys: 1, lua: RENEW });
  redis.defineCommand('duetReleaseLease', { numberOfKeys: 1, lua: RELEASE });
  // `defineCommand` adds the methods at run time (EVALSHA, not the script's text every time); ioredis's types cannot know them.
  const scripts = redis as unknown as {
    duetRenewLease: (key: string, owner: string, ttlMs: number) => Promise<number>;
    duetReleaseLease: (key: string, owner: string) => Promise<number>;
  };
  // Every lease at once: the renewals of a turn leave in one write instead of one round trip each.
  const renew = () =>
    Promise.all(
      [...held].map(async ([battleId, onLost]) => {
        try {
          if ((await scripts.duetRenewLease(keys.battleLease(battleId), owner, ttlMs)) === 0 && held.get(battleId) === onLost) {
            held.delete(battleId);
            onLost();
          }
        } catch {
          // Redis unreachable: keep running; the lease is written again once it is back.
        }
      }),
    );
  const timer = setInterval(() => void renew(), Math.max(50, Math.floor(ttlMs / 4)));
  timer.unref();
  return {
    async claim(battleId, onLost) {
      if ((await redis.set(keys.battleLease(battleId), owner, 'PX', ttlMs, 'NX')) !== 'OK') return false;
      held.set(battleId, onLost);
      return true;
    },
    async release(battleId) {
      held.delete(battleId);
      await scripts.duetReleaseLease(keys.battleLease(battleId), owner).catch(() => undefined);
    },
    stop: () => clearInterval(timer),
  };
}
