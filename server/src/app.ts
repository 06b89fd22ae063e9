import { LEADERBOARD_QUEUE, redisKeys } from '@duet/contracts';
import { listen } from '@duet/platform/listen';
import { isPriced } from '@duet/contracts/cost';
import { createModelBreaker } from '@duet/platform/model-breaker';
import { openRosterStore } from '@duet/platform/roster-store';
import { settlesWithin } from '@duet/platform/timeout';
import express from 'express';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { closeGateway } from './close-gateway.ts';
import type { GatewayConfig } from './config.ts';
import type { DuetEvents } from './events/duet-events.ts';
import { createEventBus } from './events/event-bus.ts';
import { optionalSession } from './http/auth.ts';
import { clientApp } from './http/client-app.ts';
import { deviceCookie } from './http/device-cookie.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { liveness, readiness } from './http/health.ts';
import { createHttpServer } from './http/http-server.ts';
import { perMinuteLimit } from './http/rate-limit.ts';
import { responseCompression } from './http/response-compression.ts';
import { securityHeaders } from './http/security.ts';
import { createDb } from './infra/db.ts';
import { createBattleQueue, enqueueBattle } from './infra/queue.ts';
import { connectionNameOf, createRedis, waitForRedis } from './infra/redis.ts';
import { loadOnce, storedSecret } from './infra/secrets.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createAdmission } from './modules/battles/admission.ts';
import { budgetRoutes } from './modules/budget/budget.routes.ts';
import { createBudgetService } from './modules/budget/budget.service.ts';
import { modelHealthRoutes } from './modules/model-health/model-health.routes.ts';
import { createModelHealthService } from './modules/model-health/model-health.service.ts';
import { moderationQueueRoutes } from './modules/moderation-queue/moderation-queue.routes.ts';
import { createModerationQueueService } from './modules/moderation-queue/moderation-queue.service.ts';
import { quotaRoutes } from './modules/quota/quota.routes.ts';
import { createQuotaService } from './modules/quota/quota.service.ts';
import { overviewRoutes } from './modules/overview/overview.routes.ts';
import { createOverviewService } from './modules/overview/overview.service.ts';
import { rosterRoutes } from './modules/roster/roster.routes.ts';
import { createRosterService } from './modules/roster/roster.service.ts';
import { challengeRoutes, countBattles } from './modules/challenge/challenge.routes.ts';
import { createChallengeService } from './modules/challenge/challenge.service.ts';
import { createBattleSignals } from './modules/battles/battle-signals.ts';
import { battleRoutes, voteRoutes } from './modules/battles/battle.routes.ts';
import { createBattleService } from './modules/battles/battle.service.ts';
import { createImageCleaner } from './modules/battles/image-cleaner.ts';
import { createVoterKeys } from './modules/battles/voter-key.ts';
import { createErasureService } from './modules/erasure/erasure.service.ts';
import { exportRoutes } from './modules/export/export.routes.ts';
import { createExportService } from './modules/export/export.service.ts';
import { createHistoryCache } from './modules/history/history-cache.ts';
import { historyChanges, raiseOnVotes } from './modules/history/history-changes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { createHistoryService } from './modules/history/history.service.ts';
import { leaderboardRoutes } from './modules/leaderboard/leaderboard.routes.ts';
import { createLeaderboardService, refitAfterCountedVotes } from './modules/leaderboard/leaderboard.service.ts';
import { nextRefitFrom } from './modules/leaderboard/next-refit.ts';
import { createStatsService } from './modules/stats/stats.service.ts';
import { announceWinRates } from './modules/stats/win-rates-announcer.ts';
import { shareApiRoutes, sharePageRoutes } from './modules/share/share.routes.ts';
import { createShareService } from './modules/share/share.service.ts';
import { toolsRoutes } from './modules/tools/tools.routes.ts';
import { createFirebaseAuth } from './modules/users/firebase-auth.ts';
import { createSessionTokens } from './modules/users/session.ts';
import { userRoutes } from './modules/users/user.routes.ts';
import { createUserService } from './modules/users/user.service.ts';
import { logBattleEvents } from './observability/battle-log.ts';
import { createGatewayMetrics } from './observability/metrics.ts';
import { operatorAuth } from './observability/operator-auth.ts';
import { createOperatorSessions } from './observability/operator-session.ts';
import { startOpsServer } from '@duet/platform/ops-server';
import { readinessOf } from '@duet/platform/readiness';
import { openQueueViews, queueBoard } from './observability/queue-board.ts';
import { requestLogs } from './http/request-log.ts';
import type { QueueWatch } from './realtime/queue-watch.ts';
import { watchQueue } from './realtime/queue-watch.ts';
import { createRealtime } from './realtime/socket.ts';

export interface Gateway {
  /** Where it listens, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The internal listener of `/metrics`, `/healthz` and `/readyz` (METRICS_PORT). */
  metricsUrl: string;
  logger: Logger;
  /**
   * Stops taking connections, lets open requests finish for most of `timeoutMs` (default: the
   * configured shutdown bound), cuts what is left, then closes sockets, queue, Redis and PostgreSQL.
   */
  close: (timeoutMs?: number) => Promise<void>;
}

/**
 * Builds and starts the gateway: REST API, Socket.IO, and the built client when present. This is
 * the composition root: it connects the parts and decides nothing itself.
 */
/** What tests may replace in a gateway. */
export interface GatewayOverrides {
  /** The clock the budgets' days are read from. */
  budgetClock?: () => Date;
}

export async function startGateway(config: GatewayConfig, logger: Logger = pino({ level: config.logLevel }), overrides: GatewayOverrides = {}): Promise<Gateway> {
  // First, so a refused Firebase set-up stops the start before any connection is opened.
  const firebase = config.accounts.mode === 'disabled' ? null : createFirebaseAuth(config.accounts, logger);
  const db = createDb(config.databaseUrl, config.dbPoolSize, 'duet-gateway', config.dbQueryTimeoutMs);
  // An idle connection dropped by PostgreSQL (restart, failover) must not crash the gateway.
  db.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection lost'));
  // Requests use a fail-fast connection: with Redis away they answer 503 at once instead of hanging.
  const target = { url: config.redisUrl, clusterNodes: config.redisClusterNodes };
  const redis = createRedis(target, 'duet-gateway', { failFast: true });
  // On a cluster the subscribers take sharded channels: each battle's events reach one shard only.
  const adapterPub = createRedis(target, 'duet-gateway-io-pub');
  const adapterSub = createRedis(target, 'duet-gateway-io-sub', { sharded: true });
  const eventsSub = createRedis(target, 'duet-gateway-events', { sharded: true });
  const rosterSub = createRedis(target, 'duet-gateway-roster');
  const connections = [redis, adapterPub, adapterSub, eventsSub, rosterSub];
  for (const r of connections) r.on('error', (err: Error) => logger.debug({ err: err.message, connection: connectionNameOf(r) }, 'redis connection error'));
  // Subscribing before a connection is ready races ioredis's ready check (which then fails and
  // reconnects): start from ready connections.
  await waitForRedis(connections, logger);
  const keys = redisKeys(config.redisPrefix);
  const queue = createBattleQueue(redis, config.redisPrefix);
  queue.on('error', (err) => logger.debug({ err: err.message }, 'battle queue error'));

  const roster = await openRosterStore({ db, redis, subscriber: rosterSub, keys, seed: config.roster, logger });
  const events = createEventBus<DuetEvents>(logger);
  const queueViews = openQueueViews({ connection: redis, redisPrefix: config.redisPrefix, battles: queue, logger });
  // A BullMQ queue's first command (it asks Redis for its version) failing leaves that queue failing
  // for good: better not to start (a supervisor starts it again) than to refuse every battle.
  await Promise.all(queueViews.queues.map((q) => q.waitUntilReady()));
  const metrics = createGatewayMetrics({ events, queues: queueViews.queues, db, redis, logger, spend: () => budget.figures(), available: () => health.available() });
  logBattleEvents(events, logger);
  /** Started with Socket.IO below; its measured pace suggests how long a refused visitor should wait. */
  let queueWatch: QueueWatch | null = null;
  const stats = createStatsService({ db });
  const signals = createBattleSignals({ redis, keys });
  // Unless BOT_CHALLENGE says, challenges are asked while a model battles are drawn from has a price.
  const challengeOn = () => config.challenge !== null && (config.challenge.always || roster.drawable().some(isPriced));
  const challenge = config.challenge
    ? createChallengeService({
        redis,
        keys,
        settings: config.challenge,
        secrets: loadOnce(async () => {
          const [signature, keySignature] = await Promise.all([storedSecret(db, 'challenge-hmac'), storedSecret(db, 'challenge-key-hmac')]);
          return { signature: Buffer.from(signature).toString('hex'), keySignature: Buffer.from(keySignature).toString('hex') };
        }),
      })
    : null;
  if (challenge) countBattles(events, challenge);
  const budget = createBudgetService({
    redis,
    keys,
    db,
    roster: () => roster.all().filter((m) => !m.retired),
    usdPerDay: config.budget.usdPerDay,
    timeZone: config.budget.timeZone,
    now: overrides.budgetClock,
  });
  const health = createModelHealthService({
    breaker: createModelBreaker(redis, keys, config.breaker),
    roster,
    settings: config.breaker,
    logger,
  });
  const quota = createQuotaService({ redis, keys, db, ...config.quotas, timeZone: config.budget.timeZone, now: overrides.budgetClock });
  const battles = createBattleService({
    db,
    mode: config.mode,
    enqueue: (id) => enqueueBattle(queue, id),
    budget,
    health,
    challenge: challenge && { verify: (solved) => (challengeOn() ? challenge.verify(solved) : Promise.resolve()) },
    quota,
    admission: createAdmission({ maxWaiting: config.queue.maxWaiting, waitingCount: () => queue.getWaitingCount(), pace: () => queueWatch?.pace ?? 0 }),
    cleanImage: createImageCleaner(config.images),
    signals,
    stats,
    voterKey: createVoterKeys(db),
    dailyVoteCap: config.dailyVoteCap,
    maxTurns: config.maxTurns,
    events,
  });
  const rosterAdmin = createRosterService({ db, store: roster, keyIsSet: config.keyIsSet, clearBudgetOverride: (id) => budget.clearOverride(id) });
  const leaderboard = createLeaderboardService({
    redis,
    keys,
    db,
    logger,
    nextRefitAt: nextRefitFrom(queueViews.queues.find((q) => q.name === LEADERBOARD_QUEUE), () => redis.get(keys.leaderboardStyleCost)),
    intervals: config.ratingIntervals,
  });
  const dirtyMarks = refitAfterCountedVotes(events, leaderboard, logger);
  const winRates = announceWinRates(events, stats, logger);
  const users = createUserService({
    db,
    firebase,
    sessions: createSessionTokens({ db, secret: config.session.secret, ttlHours: config.session.ttlHours }),
    erasure: createErasureService({
      db,
      redis,
      keys,
      cancel: signals.requestCancel,
      historyChanged: (tool) => historyChanged.now(tool),
      logger,
    }),
  });
  const limit = (name: string, perMinute: number) => perMinuteLimit(redis, config.redisPrefix, name, perMinute, logger);
  /** Set by `close`: readiness answers 503 so load balancers stop sending traffic here. */
  let draining = false;
  const ready = readinessOf({ db, redis, draining: () => draining });
  const operators = operatorAuth({
    adminToken: config.adminToken,
    firebase,
    basePath: '/admin',
    sessions: createOperatorSessions({ secret: loadOnce(() => storedSecret(db, 'operator-session-hs256')), adminToken: config.adminToken }),
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(securityHeaders(config.accounts, config.corsOrigins));
  app.use(metrics.countRequests);
  const client = clientApp({ dist: config.clientDist, serveSourceMaps: config.serveSourceMaps });
  if (client) app.use(client.files);
  app.use(requestLogs(logger));
  // History pages are sent compressed as they were kept (`history-cache.ts`): ahead of the
  // middleware that compresses every other answer, and of the API's other routers.
  const etagOf = app.get('etag fn') as (body: string, encoding: BufferEncoding) => string;
  const historyCache = createHistoryCache({ redis, keys, maxBytes: config.historyCacheBytes, etagOf: (json) => etagOf(json, 'utf8'), logger });
  const historyChanged = historyChanges({ redis, keys, cache: historyCache, logger });
  raiseOnVotes(events, historyChanged);
  const history = createHistoryService({ db, stats, cache: historyCache, mode: config.mode });
  app.use('/api', historyRoutes(history));
  const jsonBody = express.json({ limit: '64kb' });
  const session = optionalSession(users.authenticate);
  app.use('/api', voteRoutes(battles, limit('votes', config.rateLimits.votesPerMinute), jsonBody, session));
  app.use(responseCompression());
  app.get('/healthz', liveness);
  app.get('/readyz', readiness(ready));
  app.use('/admin', operators.routes);
  app.use('/admin/queues', operators.guard, queueBoard(queueViews.queues, '/admin/queues'));

  const api = express.Router();
  api.use(jsonBody);
  const device = deviceCookie(loadOnce(() => storedSecret(db, 'device-cookie')));
  api.use(
    toolsRoutes(
      () => ({
        demoModels: roster.drawable().every((m) => m.provider === 'demo'),
        mode: config.mode,
        accounts: firebase !== null,
        challenge: challengeOn(),
        models: roster.drawable().map((m) => ({ id: m.id, label: m.label, family: m.family })),
        maxTurns: config.maxTurns,
        ...config.site,
      }),
      device,
    ),
  );
  api.use(challengeRoutes(challenge, challengeOn));
  api.use(
    battleRoutes(
      battles,
      {
        create: limit('battles', config.rateLimits.battlesPerMinute),
        cancel: limit('cancels', config.rateLimits.cancelsPerMinute),
      },
      session,
      device,
    ),
  );
  const shell = () => client?.html() ?? null;
  const share = createShareService({ findShared: history.shared, redis, previewKey: keys.sharePreview, shell, fontFiles: config.shareFontFiles, logger });
  api.use(shareApiRoutes(share));
  api.use(leaderboardRoutes(leaderboard, session));
  api.use(
    exportRoutes(createExportService({ db }), {
      logger,
      enabled: config.exportEnabled,
      stallMs: config.exportStallMs,
      limit: limit('export', config.rateLimits.exportsPerMinute),
    }),
  );
  const adminWrites = limit('admin-writes', config.rateLimits.adminWritesPerMinute);
  api.use(
    '/admin',
    operators.api,
    (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? next() : adminWrites(req, res, next)),
    overviewRoutes(createOverviewService({ db, battleQueue: queue, roster, health, budget })),
    quotaRoutes(quota),
    budgetRoutes(budget),
    modelHealthRoutes(health),
    rosterRoutes(rosterAdmin),
    adminRoutes(createAdminService({ db, historyChanged: historyChanged.now }), users),
    moderationQueueRoutes(createModerationQueueService({ db })),
    auditRoutes(createAuditService({ db }), { logger }),
  );
  api.use(userRoutes(users, { accounts: config.accounts, limit: limit('accounts', config.rateLimits.accountsPerMinute) }));
  api.use(notFoundHandler);
  app.use('/api', api);
  app.use(sharePageRoutes(share, { publicUrl: config.publicUrl, shell }));
  if (client) app.use(client.shell);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  const httpServer = createHttpServer(app);
  const realtime = await createRealtime({
    httpServer,
    adapterPub,
    adapterSub,
    eventsSub,
    keys,
    battles,
    events,
    corsOrigins: config.corsOrigins,
    mode: config.mode,
    limits: config.sockets,
    trustProxy: app.get('trust proxy fn') as (addr: string, i: number) => boolean,
    logger,
  });

  queueWatch = watchQueue({ io: realtime.io, queue, intervalMs: config.queue.watchIntervalMs, logger });
  metrics.watchSockets(realtime.io);
  const ops = await startOpsServer({ ...config.metrics, portSetting: 'METRICS_PORT', registry: metrics.registry, readiness: ready, logger });

  // Its own `close` is not used: the gateway drains its requests (below) instead of cutting them.
  const { url } = await listen(httpServer, config.port, config.host, logger, 'PORT');
  logger.info(
    { url, metrics: ops.url, models: roster.drawable().map((m) => m.id), demo: roster.drawable().every((m) => m.provider === 'demo'), mode: config.mode, accounts: config.accounts.mode },
    'gateway listening',
  );

  return {
    url,
    metricsUrl: ops.url,
    logger,
    close: async (timeoutMs = config.shutdownTimeoutMs) => {
      draining = true;
      queueWatch?.stop();
      await closeGateway(
        {
          httpServer,
          closeSockets: () => realtime.io.close(),
          flush: [() => dirtyMarks.flush(), () => winRates.stop()],
          closers: [
            () => roster.close(),
            () => queueViews.close(),
            () => queue.close(),
            () => Promise.all(connections.map((r) => settlesWithin(r.quit(), 1_000))),
            () => firebase?.close() ?? Promise.resolve(),
            () => db.end(),
          ],
          ops,
        },
        { timeoutMs, drainDelayMs: config.drainDelayMs },
      );
    },
  };
}
