import type { RedisKeys } from '@duet/contracts';
import { budgetDay, secondsToNextDay } from '@duet/platform/budget-ledger';
import type { RedisClient } from '@duet/platform/redis-connection';

/** Who asks: the signed-in account, else the device (its cookie) and the keyed hash of the address. */
export interface Asker {
  userId?: string | undefined;
  /** The keyed hash of the address (`voter-key.ts`), never the address itself. */
  addressKey: string;
  deviceId?: string | undefined;
}

export type QuotaTaken =
  | { ok: true; give: () => Promise<void> }
  | { ok: false; retryAfterSeconds: number; limit: number; signedInLimit: number | null };

/** How long a day's counts outlive it. */
const COUNT_TTL_SECONDS = 2 * 86_400;

export type QuotaService = ReturnType<typeof createQuotaService>;

/**
 * Battles per day per asker: `anonPerDay` for a visitor who is not signed in, `userPerDay` for an
 * account (0: no quota), in the budgets' day (`BUDGET_TIME_ZONE`). An anonymous question counts on
 * its device and on its address; the device's count decides while its cookie is there, the
 * address's once it is cleared, so clearing one of the two never resets the count (and visitors
 * behind one carrier's address, each with their device, do not share one quota). A question refused
 * later (the queue, the budgets) gives its place back.
 */
export function createQuotaService(deps: {
  redis: RedisClient;
  keys: RedisKeys;
  anonPerDay: number;
  userPerDay: number;
  timeZone: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const counted = (key: string) => deps.redis.multi().incr(key).expire(key, COUNT_TTL_SECONDS).exec();

  return {
    async take(asker: Asker): Promise<QuotaTaken> {
      const at = now();
      const day = budgetDay(at, deps.timeZone);
      const limit = asker.userId ? deps.userPerDay : deps.anonPerDay;
      if (limit === 0) return { ok: true, give: async () => undefined };
      const keys = asker.userId
        ? [deps.keys.quota(day, `user:${asker.userId}`)]
        : [...(asker.deviceId ? [deps.keys.quota(day, `device:${asker.deviceId}`)] : []), deps.keys.quota(day, asker.addressKey)];
      // The first key decides (the account, else the device while it has one, else the address).
      const counts = await Promise.all(keys.map(async (key) => Number((await counted(key))?.[0]?.[1] ?? 0)));
      const give = async () => {
        await Promise.all(keys.map((key) => deps.redis.decr(key)));
      };
      if (counts[0]! <= limit) return { ok: true, give };
      await give();
      return { ok: false, retryAfterSeconds: secondsToNextDay(at, deps.timeZone), limit, signedInLimit: asker.userId ? null : deps.userPerDay };
    },
  };
}
