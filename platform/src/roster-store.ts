/**
 * The live roster every gateway and worker draws and runs from. PostgreSQL keeps it (`models`),
 * seeded from the environment on the first start; operators change it through the admin API,
 * which gives the roster a new version in Redis and announces it. Each process reads the table
 * again when it hears the announcement, and checks the version every `pollMs`, so a change whose
 * message was lost (a subscriber away, Redis restarted) is in force within a poll all the same;
 * after a check Redis did not answer, the table is read again once it answers.
 * Until PostgreSQL has answered once (a worker started before the migrations ran, the database
 * still coming up), the environment's roster stands in.
 */
import { randomUUID } from 'node:crypto';
import type { ModelSpec, RedisKeys, RosterModel } from '@duet/contracts';
import type { Logger } from 'pino';
import type { Db } from './pg-pool.ts';
import type { RedisClient } from './redis-connection.ts';
import { insertModel, readRoster } from './roster-repo.ts';
import { within } from './timeout.ts';

/** How often the version in Redis is compared with the one this process read. */
const POLL_MS = 2_000;
/** How long a start waits for PostgreSQL before it goes on with the environment's roster. */
const FIRST_READ_MS = 3_000;

export interface RosterStore {
  /** Every model, retired ones too (a battle drawn before a change runs with its models). */
  all: () => readonly RosterModel[];
  /** The models new battles are drawn from: enabled, not retired. */
  drawable: () => readonly RosterModel[];
  /** One model, whatever its state; undefined when unknown. */
  find: (id: string) => RosterModel | undefined;
  /** Reads the table now (after a miss: a battle names a model this process has not seen yet). */
  refresh: () => Promise<void>;
  /** Tells every process the roster changed (after the change committed): a new version, and the message. */
  announce: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Seeds the table from the environment when it is empty, in one transaction under an advisory lock
 * (processes starting together seed once). A table holding only the demo pair, untouched by any
 * operator, gives way to real models once the environment has them: the demo pair is retired.
 * Answers whether it changed the table.
 */
export async function seedRoster(db: Db, seed: readonly ModelSpec[]): Promise<boolean> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('duet:roster-seed'))");
    const { rows } = await client.query<{ provider: string; updated_by: string | null }>('SELECT provider, updated_by FROM models');
    const demoAlone = rows.length > 0 && rows.every((r) => r.provider === 'demo' && r.updated_by === null);
    const seedIsReal = seed.some((m) => m.provider !== 'demo');
    let changed = false;
    if (rows.length === 0 || (demoAlone && seedIsReal)) {
      if (demoAlone) await client.query("UPDATE models SET enabled = false, retired = true, updated_at = now() WHERE provider = 'demo'");
      for (const m of seed) changed = (await insertModel(client, { ...m, enabled: true }, null)) || changed;
      await client.query(
        "INSERT INTO operator_audit (actor, action, target, before, after) VALUES ('environment', 'roster.seed', NULL, NULL, $1)",
        [JSON.stringify(seed.map((m) => m.id))],
      );
    }
    await client.query('COMMIT');
    return changed;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export async function openRosterStore(deps: {
  db: Db;
  /** For the version. */
  redis: RedisClient;
  /** A connection for the announcements alone. */
  subscriber: RedisClient;
  keys: RedisKeys;
  /** The environment's roster: what seeds the table, and what stands in until it is read. */
  seed: readonly ModelSpec[];
  logger: Logger;
  pollMs?: number;
}): Promise<RosterStore> {
  const { db, redis, subscriber, keys, logger } = deps;
  let models: RosterModel[] = deps.seed.map((m) => ({ ...m, enabled: true, retired: false, updatedAt: new Date(0).toISOString(), updatedBy: null }));
  /** The version this process last read the table at; undefined until it has read it once. */
  let readAt: string | null | undefined;
  let seeded = false;
  let reading: Promise<void> | null = null;

  const version = () => redis.get(keys.rosterVersion);
  /** Reads the table (seeding it first, once); one read at a time, later callers share it. */
  const read = (): Promise<void> =>
    (reading ??= (async () => {
      try {
        if (!seeded && (await seedRoster(db, deps.seed))) await announce();
        seeded = true;
        const before = await version().catch(() => null);
        const next = await readRoster(db);
        if (next.length > 0) models = next;
        readAt = before;
      } finally {
        reading = null;
      }
    })());
  const announce = async () => {
    const next = randomUUID();
    await redis.set(keys.rosterVersion, next);
    await redis.publish(keys.rosterChannel, next);
  };

  const onMessage = (channel: string) => {
    if (channel !== keys.rosterChannel) return;
    read().catch((err: unknown) => logger.warn({ err }, 'could not read the roster after a change; the next check tries again'));
  };
  // Plain pub/sub on a cluster too: a roster change is rare, and every node hears it.
  subscriber.on('message', onMessage);
  await subscriber.subscribe(keys.rosterChannel).catch((err: unknown) => logger.warn({ err }, 'could not hear roster changes; checking their version instead'));

  /** Set while Redis did not answer a check: a change may have been made meanwhile, unannounced. */
  let missed = false;
  const poll = setInterval(() => {
    version().then(
      (current) => {
        if (readAt !== undefined && current === readAt && !missed) return;
        read().then(
          () => (missed = false),
          (err: unknown) => logger.debug({ err }, 'could not read the roster; trying again'),
        );
      },
      () => (missed = true),
    );
  }, deps.pollMs ?? POLL_MS);
  poll.unref();

  await within(FIRST_READ_MS, read()).catch((err: unknown) =>
    logger.warn({ err: err instanceof Error ? err.message : err }, 'the roster is not readable yet: the environment’s stands in until it is'),
  );

  return {
    all: () => models,
    drawable: () => models.filter((m) => m.enabled && !m.retired),
    find: (id) => models.find((m) => m.id === id),
    refresh: read,
    announce,
    async close() {
      clearInterval(poll);
      subscriber.off('message', onMessage);
      await subscriber.unsubscribe(keys.rosterChannel).catch(() => undefined);
    },
  };
}
