import type { QuotasChange, QuotasReport, RedisKeys } from '@duet/contracts';
import { budgetDay, secondsToNextDay } from '@duet/platform/budget-ledger';
import type { RedisClient } from '@duet/platform/redis-connection';
import { AppError } from '../../http/errors.ts';
import type { Db } from '../../infra/db.ts';
import { recordAudit } from '../audit/audit.service.ts';

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

/** How long a gateway keeps the quotas operators set before reading them again. */
const OVERRIDES_TTL_MS = 1_000;

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
  db: Db;
  /** QUOTA_ANON_PER_DAY and QUOTA_USER_PER_DAY: what operators' overrides go back to. */
  anonPerDay: number;
  userPerDay: number;
  timeZone: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const counted = (key: string) => deps.redis.multi().incr(key).expire(key, COUNT_TTL_SECONDS).exec();
  /** Counts a question in the day's tally (for the console; never fails a question). */
  const tally = (day: string, field: 'asked' | 'refused', by: number) => {
    const key = deps.keys.quotaTally(day);
    deps.redis.multi().hincrby(key, field, by).expire(key, COUNT_TTL_SECONDS).exec().catch(() => undefined);
  };
  let overrides: { at: number; values: Promise<Record<string, string>> } | null = null;

  /** The quotas in force: operators' overrides over the settings, read at most once a second. */
  async function limits(): Promise<{ anonPerDay: number; userPerDay: number }> {
    if (!overrides || Date.now() - overrides.at > OVERRIDES_TTL_MS) {
      const values = deps.redis.hgetall(deps.keys.quotaOverrides);
      overrides = { at: Date.now(), values };
      values.catch(() => (overrides = null));
    }
    const set = await overrides.values;
    return {
      anonPerDay: set.anon === undefined ? deps.anonPerDay : Number(set.anon),
      userPerDay: set.user === undefined ? deps.userPerDay : Number(set.user),
    };
  }

  async function report(): Promise<QuotasReport> {
    const day = budgetDay(now(), deps.timeZone);
    const [inForce, counts] = await Promise.all([limits(), deps.redis.hgetall(deps.keys.quotaTally(day))]);
    return {
      ...inForce,
      settings: { anonPerDay: deps.anonPerDay, userPerDay: deps.userPerDay },
      today: { day, asked: Math.max(0, Number(counts.asked ?? 0)), refused: Number(counts.refused ?? 0) },
    };
  }

  return {
    async take(asker: Asker): Promise<QuotaTaken> {
      const at = now();
      const day = budgetDay(at, deps.timeZone);
      const quotas = await limits();
      const limit = asker.userId ? quotas.userPerDay : quotas.anonPerDay;
      const asked = () => tally(day, 'asked', -1);
      if (limit === 0) {
        tally(day, 'asked', 1);
        return { ok: true, give: async () => asked() };
      }
      const keys = asker.userId
        ? [deps.keys.quota(day, `user:${asker.userId}`)]
        : [...(asker.deviceId ? [deps.keys.quota(day, `device:${asker.deviceId}`)] : []), deps.keys.quota(day, asker.addressKey)];
      // The first key decides (the account, else the device while it has one, else the address).
      const counts = await Promise.all(keys.map(async (key) => Number((await counted(key))?.[0]?.[1] ?? 0)));
      const give = async () => {
        await Promise.all(keys.map((key) => deps.redis.decr(key)));
      };
      if (counts[0]! <= limit) {
        tally(day, 'asked', 1);
        return {
          ok: true,
          give: async () => {
            asked();
            await give();
          },
        };
      }
      await give();
      tally(day, 'refused', 1);
      return { ok: false, retryAfterSeconds: secondsToNextDay(at, deps.timeZone), limit, signedInLimit: asker.userId ? null : quotas.userPerDay };
    },
    report,
    /** Sets quotas over the settings for every gateway within a second (null: back to the setting), with its audit entry. */
    async setQuotas(change: QuotasChange, actor: string): Promise<QuotasReport> {
      const before = await report();
      const fields = [
        ['anon', change.anonPerDay],
        ['user', change.userPerDay],
      ] as const;
      const set = fields.filter((f): f is readonly ['anon' | 'user', number] => typeof f[1] === 'number');
      const unset = fields.filter(([, v]) => v === null).map(([k]) => k);
      const next = { ...before, anonPerDay: change.anonPerDay === null ? deps.anonPerDay : (change.anonPerDay ?? before.anonPerDay) };
      next.userPerDay = change.userPerDay === null ? deps.userPerDay : (change.userPerDay ?? before.userPerDay);
      if (next.anonPerDay > 0 && next.userPerDay > 0 && next.userPerDay < next.anonPerDay) {
        throw new AppError(400, 'validation_failed', 'userPerDay: at least anonPerDay: signing up never gives fewer questions');
      }
      if (set.length) await deps.redis.hset(deps.keys.quotaOverrides, Object.fromEntries(set.map(([k, v]) => [k, String(v)])));
      if (unset.length) await deps.redis.hdel(deps.keys.quotaOverrides, ...unset);
      overrides = null;
      const after = await report();
      await recordAudit(deps.db, {
        actor,
        action: 'quotas.update',
        target: null,
        before: { anonPerDay: before.anonPerDay, userPerDay: before.userPerDay },
        after: { anonPerDay: after.anonPerDay, userPerDay: after.userPerDay },
      });
      return after;
    },
  };
}
