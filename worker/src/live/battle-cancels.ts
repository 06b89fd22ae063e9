import type { RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';

/** How often running battles' cancel flags are looked at, for a cancel whose message was missed. */
const CANCEL_SWEEP_MS = 5_000;

export interface BattleCancels {
  /** Whether a visitor cancelled the battle: the flag their cancel leaves beside its message. */
  isCancelled: (battleId: string) => Promise<boolean>;
  stop: () => void;
}

/**
 * Hears visitors' cancels and stops the battles they name among `running`. A cancel is published
 * once: one sent while the subscriber was away (Redis restarting, a host gone under it) would be
 * lost. The flag the gateway sets with it is looked at for every running battle each
 * CANCEL_SWEEP_MS, so such a cancel still stops its battle, a few seconds late.
 */
export async function watchCancels(deps: {
  /** A connection for the subscription alone. */
  subscriber: RedisClient;
  /** A connection for the flags. */
  redis: RedisClient;
  keys: RedisKeys;
  running: ReadonlyMap<string, { cancel: AbortController }>;
}): Promise<BattleCancels> {
  const isCancelled = async (battleId: string) => (await deps.redis.exists(deps.keys.battleCancelled(battleId))) === 1;
  await deps.subscriber.subscribe(deps.keys.cancelChannel);
  deps.subscriber.on('message', (_channel, battleId: string) => deps.running.get(battleId)?.cancel.abort());
  const sweep = setInterval(() => {
    for (const [battleId, run] of deps.running) {
      if (run.cancel.signal.aborted) continue;
      isCancelled(battleId).then(
        (cancelled) => cancelled && run.cancel.abort(),
        () => undefined,
      );
    }
  }, CANCEL_SWEEP_MS);
  sweep.unref();
  return { isCancelled, stop: () => clearInterval(sweep) };
}
