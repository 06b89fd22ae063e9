import { randomBytes, randomUUID } from 'node:crypto';
import { bullPrefix, redisKeys } from '@duet/contracts';
import type { Language } from '@duet/contracts';
import { raiseHistoryVersion } from '@duet/platform/history-version';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBattle } from '../../server/src/modules/battles/battle.repo.ts';
import { loadWorkerConfig } from '../../worker/src/config.ts';
import { createDb } from '../../worker/src/infra/db.ts';
import type { Db } from '../../worker/src/infra/db.ts';
import { createRedis, redisReady } from '../../worker/src/infra/redis.ts';
import type { RedisClient } from '../../worker/src/infra/redis.ts';
import { createRunBattleHandler } from '../../worker/src/jobs/run-battle.handler.ts';
import { fixedRoster, pricesOfRoster, providerLookup } from '../../worker/src/providers/provider-lookup.ts';
import type { RunBattle } from '../../worker/src/jobs/run-battle.handler.ts';
import { createBattlePublisher } from '../../worker/src/live/battle-publisher.ts';
import { startModeration } from '../../worker/src/moderation/moderation.ts';
import type { Moderation } from '../../worker/src/moderation/moderation.ts';
import { createProvider } from '../../worker/src/providers/index.ts';
import * as repo from '../../worker/src/store/battle.repo.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { createTestDatabase } from '../helpers/test-db.ts';
import type { TestDatabase } from '../helpers/test-db.ts';

/** A statement the worker sent, with its parameters. */
interface Sent {
  text: string;
  values: unknown[];
}

/**
 * What a worker asks of PostgreSQL to run one battle, on the real database: its run handler and
 * moderation over a pool that notes every statement (then runs it as sent).
 */
describe('the statements a worker sends per battle', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: TestDatabase;
  let pool: Db;
  let live: RedisClient;
  let bull: RedisClient;
  let moderation: Moderation;
  let runBattle: RunBattle;
  const sent: Sent[] = [];
  /** Runs before a model starts answering (model id, the battle's question), when set. */
  let beforeStream: ((model: string, question: string) => Promise<void>) | null = null;
  const config = () =>
    loadWorkerConfig({ DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, DEMO_SPEED: '400', MODERATION: 'wordlist', LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    db = await createTestDatabase();
    const c = config();
    pool = createDb(db.url, 4, 'duet-worker', c.dbQueryTimeoutMs);
    const noted = new Proxy(pool, {
      get(target, prop) {
        if (prop === 'query') {
          return (text: string, values: unknown[] = []) => {
            sent.push({ text, values });
            return target.query(text, values);
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    live = createRedis({ url: TEST_REDIS_URL, clusterNodes: [] }, 'test-statements', { failFast: true });
    bull = createRedis({ url: TEST_REDIS_URL, clusterNodes: [] }, 'test-statements-bull');
    await Promise.all([live, bull].map((r) => redisReady(r)));
    const logger = pino({ level: 'silent' });
    moderation = await startModeration({
      db: noted,
      connection: bull,
      prefix: bullPrefix(prefix, false),
      logger,
      config: c.moderation,
      historyChanged: (tool) => raiseHistoryVersion(live, redisKeys(prefix), tool),
    });
    // Only the runs' own statements are counted: the periodic sweep (which would read a pending
    // battle) is stopped; `moderateBattle` works without it.
    await moderation.close();
    runBattle = createRunBattleHandler({
      db: noted,
      publisher: createBattlePublisher(live, redisKeys(prefix), 600),
      // Battles stored here reserve nothing: their budget is never touched.
      spending: { pricesFor: pricesOfRoster(fixedRoster(c.roster)), timeZone: 'UTC', budget: { sideStored: async () => true, battleEnded: async () => undefined } },
      providerFor: providerLookup(fixedRoster(c.roster), (spec) => {
        const provider = createProvider(spec, { apiKey: undefined, timeoutMs: 10_000, demoSpeed: c.demoSpeed });
        return {
          ...provider,
          async *stream(req) {
            await beforeStream?.(spec.id, req.context?.text ?? '');
            yield* provider.stream(req);
          },
        };
      }),
      isCancelled: async () => false,
      logger,
      flushMs: () => 20,
      idleTimeoutMs: 10_000,
      retries: 0,
      retryBaseMs: 10,
      storeRetryMs: 5_000,
      afterStored: moderation.moderateBattle,
    });
  });

  afterAll(async () => {
    const plain = new Redis(TEST_REDIS_URL);
    const keys = await plain.keys(`${prefix}:*`);
    if (keys.length) await plain.del(...keys);
    plain.disconnect();
    live?.disconnect();
    bull?.disconnect();
    await pool?.end();
    await db?.drop();
  });

  const newBattle = async (text: string, lang: Language = 'en', image?: { mimeType: string; data: Buffer }) => {
    const [a, b] = config().roster;
    const id = randomUUID();
    await insertBattle(db.pool, {
      id,
      tool: 'anything-question',
      lang,
      text,
      inputs: {},
      sides: { a: a!, b: b! },
      mode: 'blind',
      voteTokenHash: randomBytes(32),
      image,
      userId: null,
    });
    return id;
  };
  /** The statements about one battle (the periodic moderation sweep's are about none). */
  const about = (battleId: string) => sent.filter((s) => s.values.includes(battleId));
  const stored = async (battleId: string) =>
    (
      await db.pool.query<{ status: string; moderation: string; moderation_categories: string[]; answers: number }>(
        `SELECT status, moderation, moderation_categories, (SELECT count(*)::int FROM answers WHERE battle_id = b.id) AS answers
           FROM battles b WHERE id = $1`,
        [battleId],
      )
    ).rows[0];

  it('runs, stores and moderates a battle in five statements: start, two answers, verdict, finish', async () => {
    const clean = await newBattle('Why is the sky blue?');
    const flagged = await newBattle('I will kill you, tell me how');
    await runBattle(clean, { cancel: new AbortController().signal, stop: new AbortController().signal });
    await runBattle(flagged, { cancel: new AbortController().signal, stop: new AbortController().signal });

    expect(await stored(clean)).toEqual({ status: 'finished', moderation: 'ok', moderation_categories: [], answers: 2 });
    // Moderated from the texts the worker had in hand: the question's word is found without reading it back.
    expect(await stored(flagged)).toEqual({ status: 'finished', moderation: 'flagged', moderation_categories: ['violence'], answers: 2 });
    for (const id of [clean, flagged]) {
      const statements = about(id).map((s) => s.text.replace(/\s+/g, ' ').trim());
      expect(statements).toHaveLength(5);
      expect(statements[0]).toMatch(/^WITH mark AS \( UPDATE battles SET status/);
      expect(statements.slice(1, 3).every((s) => s.startsWith('WITH stored AS ( INSERT INTO answers'))).toBe(true);
      expect(statements[3]).toMatch(/^UPDATE battles SET moderation = \$2/);
      expect(statements[4]).toMatch(/^UPDATE battles SET status = 'finished'/);
    }
  });

  it('reads a side an earlier attempt stored back for moderation, and runs only the other side', async () => {
    const id = await newBattle('Tell me about whales');
    const [a] = config().roster;
    await repo.insertAnswer(db.pool, {
      battleId: id,
      side: 'a',
      model: a!.id,
      text: 'Whales are large. I will kill you.',
      stats: { finishReason: 'stop', inputTokens: 1, outputTokens: 1, ttftMs: 1, durationMs: 1 },
      error: null,
    });
    await runBattle(id, { cancel: new AbortController().signal, stop: new AbortController().signal });

    expect(await stored(id)).toEqual({ status: 'finished', moderation: 'flagged', moderation_categories: ['violence'], answers: 2 });
    const statements = about(id).map((s) => s.text.replace(/\s+/g, ' ').trim());
    expect(statements.filter((s) => s.startsWith('WITH stored AS ( INSERT INTO answers'))).toHaveLength(1);
    expect(statements.some((s) => s.includes('json_agg'))).toBe(true);
    const text = await db.pool.query<{ text: string }>(`SELECT text FROM answers WHERE battle_id = $1 AND side = 'a'`, [id]);
    expect(text.rows[0]!.text).toBe('Whales are large. I will kill you.');
  });

  it('moderates what is stored: a side another attempt stored meanwhile is read back, not the text this run got', async () => {
    const [a] = config().roster;
    const id = await newBattle('Tell me about dolphins');
    const other = 'Dolphins are smart. I will kill you.';
    // Another attempt stores side a after this run read the battle, before its model answers.
    beforeStream = async (model, question) => {
      if (model !== a!.id || question !== 'Tell me about dolphins') return;
      await repo.insertAnswer(db.pool, {
        battleId: id,
        side: 'a',
        model: a!.id,
        text: other,
        stats: { finishReason: 'stop', inputTokens: 1, outputTokens: 1, ttftMs: 1, durationMs: 1 },
        error: null,
      });
    };
    try {
      await runBattle(id, { cancel: new AbortController().signal, stop: new AbortController().signal });
    } finally {
      beforeStream = null;
    }
    // The demo model's own answer is clean; the stored one is not.
    expect(await stored(id)).toEqual({ status: 'finished', moderation: 'flagged', moderation_categories: ['violence'], answers: 2 });
    const text = await db.pool.query<{ text: string }>(`SELECT text FROM answers WHERE battle_id = $1 AND side = 'a'`, [id]);
    expect(text.rows[0]!.text).toBe(other);
    expect(about(id).some((s) => s.text.includes('json_agg'))).toBe(true);
  });

  it('marks a queued battle running and clears its orphan mark when it starts, and leaves a finished one as it is', async () => {
    const queued = await newBattle('How do tides work?', 'en', { mimeType: 'image/png', data: Buffer.from('not really a png') });
    await db.pool.query(`UPDATE battles SET orphaned_at = now() WHERE id = $1`, [queued]);
    const start = await repo.startBattle(pool, queued);
    expect(start?.battle.status).toBe('queued');
    expect(start?.stored).toEqual(new Set());
    expect(start?.image).toEqual({ mimeType: 'image/png', data: Buffer.from('not really a png') });
    const after = await db.pool.query(`SELECT status, orphaned_at FROM battles WHERE id = $1`, [queued]);
    expect(after.rows[0]).toEqual({ status: 'running', orphaned_at: null });

    const finished = await newBattle('What is a prime number?');
    await db.pool.query(`UPDATE battles SET status = 'finished', finished_at = now(), orphaned_at = now() WHERE id = $1`, [finished]);
    const before = await db.pool.query(`SELECT status, finished_at, orphaned_at FROM battles WHERE id = $1`, [finished]);
    expect((await repo.startBattle(pool, finished))?.battle.status).toBe('finished');
    expect((await db.pool.query(`SELECT status, finished_at, orphaned_at FROM battles WHERE id = $1`, [finished])).rows).toEqual(before.rows);

    expect(await repo.startBattle(pool, randomUUID())).toBeNull();
  });
});
