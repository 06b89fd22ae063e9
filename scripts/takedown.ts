/**
 * Takes a battle down, or restores it, from an operator's shell:
 *   npm run takedown -- <battleId> [--restore]
 * The same service as `POST /api/admin/battles/:id/takedown|restore`, on the database named by
 * DATABASE_URL. A taken-down battle leaves history, the open-data export and its image URL.
 */
import { parseArgs } from 'node:util';
import { redisKeys } from '@duet/contracts';
import { parseEnv, ZInfraEnvSchema } from '@duet/platform/env';
import { HISTORY_CACHE_TTL_MS, raiseHistoryVersion } from '@duet/platform/history-version';
import { AppError } from '../server/src/http/errors.ts';
import { createDb } from '../server/src/infra/db.ts';
import { createRedis, redisReady } from '../server/src/infra/redis.ts';
import { createAdminService } from '../server/src/modules/admin/admin.service.ts';

const USAGE = 'Usage: npm run takedown -- <battleId> [--restore]';

function readArgs(): { battleId: string; restore: boolean } {
  try {
    const { values, positionals } = parseArgs({ allowPositionals: true, options: { restore: { type: 'boolean', default: false } } });
    const [battleId] = positionals;
    if (battleId && positionals.length === 1) return { battleId, restore: values.restore === true };
  } catch (err) {
    console.error((err as Error).message);
  }
  console.error(USAGE);
  process.exit(2);
}

const { battleId, restore } = readArgs();
const env = parseEnv(ZInfraEnvSchema, process.env);
const db = createDb(env.DATABASE_URL, 1, 'duet-takedown', env.DB_QUERY_TIMEOUT_MS);

/** Tells the gateways the tool's history pages changed; without Redis they show it within the cache's bound. */
async function historyChanged(tool: string): Promise<void> {
  const redis = createRedis({ url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES }, 'duet-takedown', { failFast: true });
  redis.on('error', () => undefined);
  try {
    await redisReady(redis, { failOnError: true });
    await raiseHistoryVersion(redis, redisKeys(env.REDIS_PREFIX), tool);
  } catch (err) {
    console.warn(`Redis did not answer (${(err as Error).message}): history pages already rendered may show the old state for ${HISTORY_CACHE_TTL_MS / 1000} s.`);
  } finally {
    redis.disconnect();
  }
}

try {
  const admin = createAdminService({ db, historyChanged });
  const done = restore ? await admin.restore(battleId, 'cli') : await admin.takeDown(battleId, 'cli');
  console.log(`Battle ${done.battleId} ${done.moderation === 'ok' ? 'restored: shown in public again' : 'taken down: hidden from history, export and its image URL'}.`);
} catch (err) {
  console.error(err instanceof AppError ? err.message : err);
  process.exitCode = 1;
} finally {
  await db.end();
}
