/**
 * Redis names shared by gateway and worker, under one prefix so deployments and tests can share a
 * Redis. Everything about one battle carries its id as a hash tag (`{id}`), so on a Redis Cluster
 * its stream, flags and live channel sit in one slot and can go in one transaction.
 */
export const redisKeys = (prefix: string) => ({
  /** Stream of `BattleEvent`s for one battle (snapshots and resumes read it). */
  battleStream: (battleId: string) => `${prefix}:battle:{${battleId}}:events`,
  /** Pub/sub channel of one battle's live events: only gateways with a viewer of it subscribe. */
  battleLive: (battleId: string) => `${prefix}:battle:{${battleId}}:live`,
  /** Set when a battle is cancelled, read by the worker before and while it runs. */
  battleCancelled: (battleId: string) => `${prefix}:battle:{${battleId}}:cancelled`,
  /** Held by the worker running a battle (its id as the value), renewed while it runs. */
  battleLease: (battleId: string) => `${prefix}:battle:{${battleId}}:lease`,
  /** The Socket.IO Redis adapter's channels (win-rate updates to every gateway's watchers). */
  socketIoChannel: `${prefix}:socket.io`,
  /** Set when a counted vote arrives; cleared by the leaderboard job when it recomputes. */
  leaderboardDirty: `${prefix}:leaderboard:dirty`,
  /**
   * How the last style refit went, written by it: `cheap` (under LEADERBOARD_STYLE_CHEAP_MS, so the
   * plain refit runs it along) or `costly` (it waits for its own schedule). See `styleRefitFollowsPlain` (jobs.ts).
   */
  leaderboardStyleCost: `${prefix}:leaderboard:style-cost`,
  /**
   * Cached leaderboard JSON: overall (`*`), per tool slug or per category (`category:ko`), with
   * `:style` for the style-controlled ratings and `:dedup-off` for the plain ratings that count the
   * votes over the prompt cap too.
   */
  leaderboard: (tool: string | null, board?: { category?: string | null; control?: string; dedup?: string }) =>
    `${prefix}:leaderboard:${board?.category ? `category:${board.category}` : (tool ?? '*')}${board?.control === 'style' ? ':style' : ''}${board?.dedup === 'off' ? ':dedup-off' : ''}`,
  /**
   * A tool's history version: a number raised after every change to what its history pages show
   * (a vote, a moderation decision, a takedown). Gateways cache rendered pages under it.
   */
  historyVersion: (tool: string) => `${prefix}:history:${tool}:version`,
  /**
   * A shared battle's preview image (PNG) in one language, kept once rendered. Served only after the
   * battle is checked to be still public, so a takedown needs no clean-up here.
   */
  sharePreview: (battleId: string, lang: string) => `${prefix}:share:{${battleId}}:preview:${lang}`,
  /** Pub/sub channel carrying battle ids to cancel. */
  cancelChannel: `${prefix}:battle-cancel`,
  /**
   * A budget day's reserved and settled spend (micro-dollars), overall and per model. Every key of
   * one day carries the day as its hash tag: the budget scripts touch several at once.
   */
  budgetTotals: (day: string) => `${prefix}:budget:{${day}}:totals`,
  /** One battle's reservation in its budget day, until its sides are settled. */
  budgetBattle: (day: string, battleId: string) => `${prefix}:budget:{${day}}:battle:${battleId}`,
  /** The battles of a budget day with a reservation still open, by when they reserved it. */
  budgetOpen: (day: string) => `${prefix}:budget:{${day}}:open`,
  /** A day's count of battles of one asker (`user:<id>`, `device:<id>`, `ip:<keyed hash>`): the quotas. */
  quota: (day: string, asker: string) => `${prefix}:quota:${day}:${asker}`,
  /** Quotas an operator set (`PUT /api/admin/quotas`), over the settings: `anon`, `user`. */
  quotaOverrides: `${prefix}:quota-overrides`,
  /** A day's questions asked within the quotas (`asked`) and refused past them (`refused`). */
  quotaTally: (day: string) => `${prefix}:quota-tally:${day}`,
  /** A challenge's signature once a battle used it: each solution is accepted once, on any gateway. */
  challengeUsed: (signature: string) => `${prefix}:challenge:used:${signature}`,
  /** Battles created in one minute (epoch minutes), across gateways: past a rate, challenges get harder. */
  battleRate: (minute: number) => `${prefix}:battle-rate:${minute}`,
  /** Budgets an operator set (`PUT /api/admin/budgets`), over the settings': `*` and model ids, in US dollars. */
  budgetOverrides: `${prefix}:budget-overrides`,
  /**
   * The models whose breaker is not closed: model id → `open|<until ms>` or `probe|<until ms>`. The
   * breaker's keys share the `{breaker}` hash tag: its scripts read the window and write the state at once.
   */
  breakerStates: `${prefix}:{breaker}:states`,
  /** The roster's version: a new value after every change to the models in PostgreSQL. */
  rosterVersion: `${prefix}:roster:version`,
  /** Pub/sub channel saying the roster changed (its new version): processes read it again at once. */
  rosterChannel: `${prefix}:roster:changed`,
  /** A model's outcomes (`ok`, `fail`) in one 10-second bucket of the breaker's window. */
  breakerBucket: (model: string, bucket: number) => `${prefix}:{breaker}:b:${model}:${bucket}`,
});
export type RedisKeys = ReturnType<typeof redisKeys>;

/**
 * The prefix of every BullMQ key of a deployment (its queues live under it). On a Redis Cluster
 * it is a hash tag (`{duet}:bull`): BullMQ's scripts touch many keys of a queue at once, so they
 * must all sit in one slot. One Redis keeps the plain prefix its queues already have.
 */
export const bullPrefix = (prefix: string, cluster = false): string => (cluster ? `{${prefix}}:bull` : `${prefix}:bull`);
