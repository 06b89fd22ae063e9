import type { Queue } from 'bullmq';
import { battleOfRoom, isToolRoom } from '@duet/contracts';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DuetBus } from '../events/duet-events.ts';
import type { Db } from '../infra/db.ts';
import { within } from '@duet/platform/timeout';
import { isCluster } from '../infra/redis.ts';
import type { RedisClient } from '../infra/redis.ts';
import { dbPoolGauges } from '@duet/platform/pool-metrics';
import { unhandledRejectionsCounter } from '@duet/platform/process-lifecycle';
import { queueGauges } from '@duet/platform/queue-metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What the metrics read of the Socket.IO server at each scrape: its connections and rooms. */
export interface WatchedSockets {
  of: (namespace: '/') => { sockets: { size: number }; adapter: { rooms: { keys: () => Iterable<string> } } };
}

export interface GatewayMetrics {
  registry: Registry;
  /** Times every HTTP request, by method, route pattern (never the raw path) and status. */
  countRequests: RequestHandler;
  /** Reads Socket.IO connections and rooms from `io` at each scrape. */
  watchSockets: (io: WatchedSockets) => void;
}

/** Today's spend and budgets in US dollars, by model id and `all` (0: no budget), read at each scrape. */
export type SpendFigures = () => Promise<{ spent: Record<string, number>; budgets: Record<string, number> }>;

/**
 * The gateway's Prometheus figures, in a registry of its own (several gateways can live in one
 * process, as in tests). Votes and battles are counted from the event bus, never by the services;
 * queue depths, sockets, spend and the models' breakers are read when scraped.
 */
export function createGatewayMetrics(deps: {
  events: DuetBus;
  queues: readonly Queue[];
  db: Db;
  redis: RedisClient;
  logger: Logger;
  spend: SpendFigures;
  /** Each roster model: 1 when it can be drawn, 0 while its breaker is open. */
  available: () => Promise<Record<string, number>>;
}): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'duet_' });
  queueGauges(registry, deps.queues, deps.logger);
  dbPoolGauges(registry, deps.db);
  redisMemoryGauge(registry, deps.redis, deps.logger);
  unhandledRejectionsCounter(registry);
  spendGauges(registry, deps.spend, deps.logger);
  availabilityGauge(registry, deps.available, deps.logger);

  const battles = new Counter({ name: 'duet_battles_created_total', help: 'Battles stored and queued, by tool', labelNames: ['tool'], registers });
  const cancels = new Counter({ name: 'duet_battles_cancelled_total', help: 'Battles their vote-token holder cancelled', registers });
  const votes = new Counter({
    name: 'duet_votes_total',
    help: 'Votes stored, by tool, whether they count, and why not (reason "none" when counted)',
    labelNames: ['tool', 'counted', 'reason'],
    registers,
  });
  deps.events.on('battle.created', ({ tool }) => battles.inc({ tool }));
  deps.events.on('battle.cancelled', () => cancels.inc());
  deps.events.on('vote.recorded', ({ tool, counted, reason }) => votes.inc({ tool, counted: String(counted), reason: reason ?? 'none' }));

  let io: WatchedSockets | null = null;
  new Gauge({
    name: 'duet_socketio_connections',
    help: 'Socket.IO connections open on this gateway',
    registers,
    collect() {
      this.set(io?.of('/').sockets.size ?? 0);
    },
  });
  new Gauge({
    name: 'duet_socketio_rooms',
    help: 'Socket.IO rooms on this gateway: battles being watched, tools whose win rates are followed',
    labelNames: ['kind'],
    registers,
    collect() {
      const counts = { battle: 0, tool: 0 };
      for (const room of io?.of('/').adapter.rooms.keys() ?? []) {
        if (battleOfRoom(room) !== null) counts.battle += 1;
        else if (isToolRoom(room)) counts.tool += 1;
      }
      this.set({ kind: 'battle' }, counts.battle);
      this.set({ kind: 'tool' }, counts.tool);
    },
  });

  const requests = new Histogram({
    name: 'duet_http_request_duration_seconds',
    help: 'HTTP requests served, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const countRequests: RequestHandler = (req, res, next) => {
    const end = requests.startTimer();
    // The matched pattern (`/api/battles/:id/vote`) keeps the label set small; a request no route
    // took (the client's files, 404s) is `none`. It is noted when Express matches the route: by
    // the time an error reaches the app's error handler, `baseUrl` no longer has the router's mount.
    let route = 'none';
    let matched: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => matched,
      set: (value: { path?: unknown } | undefined) => {
        matched = value;
        if (value) route = `${req.baseUrl}${String(value.path)}`;
      },
    });
    res.once('close', () => end({ method: METHODS.has(req.method) ? req.method : 'other', route, status: String(res.statusCode) }));
    next();
  };

  return {
    registry,
    countRequests,
    watchSockets: (server) => {
      io = server;
    },
  };
}

/** `used_memory` and `maxmemory` (0: no limit) of one Redis, from `INFO memory`. */
async function redisMemory(node: RedisClient): Promise<{ used: number; max: number }> {
  const info = await node.info('memory');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { used: field('used_memory'), max: field('maxmemory') };
}

/**
 * Redis's memory against its `maxmemory`, read at each scrape. Past the limit Redis (with
 * `noeviction`, as BullMQ needs) refuses every write: new battles and votes answer 503 and live
 * text stops until it has room. On a cluster, the fullest master's figures (its slots are the
 * ones refused first).
 */
function redisMemoryGauge(registry: Registry, redis: RedisClient, logger: Logger): void {
  const fill = (m: { used: number; max: number }) => (m.max > 0 ? m.used / m.max : 0);
  new Gauge({
    name: 'duet_redis_memory_bytes',
    help: 'Redis memory: used, and the maxmemory limit past which it refuses writes (0: no limit); on a cluster, the fullest master',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const nodes = isCluster(redis) ? redis.nodes('master') : [redis];
        const figures = await within(1_000, () => Promise.all(nodes.map(redisMemory)));
        const fullest = figures.reduce((a, b) => (fill(b) > fill(a) ? b : a));
        this.set({ kind: 'used' }, fullest.used);
        this.set({ kind: 'max' }, fullest.max);
      } catch (err) {
        logger.debug({ err }, 'could not read Redis memory for the metrics');
      }
    },
  });
}



/**
 * `duet_spend_today_usd{model}` (settled today, `all` for every model) and
 * `duet_budget_usd_per_day{model}` (0: none), from the budgets' ledger in Redis at each scrape:
 * every gateway reports the same figures, aggregate with `max`.
 */
function spendGauges(registry: Registry, spend: SpendFigures, logger: Logger): void {
  let figures: ReturnType<SpendFigures> | null = null;
  // Both gauges are collected in one scrape: one read of the ledger serves them.
  const read = () => {
    figures ??= spend().finally(() => setImmediate(() => (figures = null)));
    return figures;
  };
  const gauge = (name: string, help: string, pick: (f: Awaited<ReturnType<SpendFigures>>) => Record<string, number>) =>
    new Gauge({
      name,
      help,
      labelNames: ['model'],
      registers: [registry],
      async collect() {
        this.reset();
        try {
          for (const [model, usd] of Object.entries(pick(await read()))) this.set({ model }, usd);
        } catch (err) {
          logger.debug({ err }, 'could not read the budgets for the metrics');
        }
      },
    });
  gauge('duet_spend_today_usd', "What answers settled today cost, in US dollars, by model and for all ('all'), in BUDGET_TIME_ZONE's day", (f) => f.spent);
  gauge('duet_budget_usd_per_day', "Each model's budget and the overall one ('all') per day, in US dollars (0: none)", (f) => f.budgets);
}

/** `duet_model_available{model}`: 0 while a model's breaker keeps it out of the draw (every gateway reports the same figure). */
function availabilityGauge(registry: Registry, available: () => Promise<Record<string, number>>, logger: Logger): void {
  new Gauge({
    name: 'duet_model_available',
    help: 'Whether a roster model can be drawn (1), or its breaker keeps it out after failures (0)',
    labelNames: ['model'],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const [model, up] of Object.entries(await available())) this.set({ model }, up);
      } catch (err) {
        logger.debug({ err }, 'could not read the models’ breakers for the metrics');
      }
    },
  });
}
