import type { AdminNow } from '@duet/contracts';
import type { RosterStore } from '@duet/platform/roster-store';
import { within } from '@duet/platform/timeout';
import type { Queue } from 'bullmq';
import type { Db } from '../../infra/db.ts';
import type { BudgetService } from '../budget/budget.service.ts';
import type { ModelHealthService } from '../model-health/model-health.service.ts';
import { recentActivity } from './overview.repo.ts';

/** How long one gateway serves the figures it read before reading them again (the console asks every few seconds). */
const FRESH_MS = 2_000;

export type OverviewService = ReturnType<typeof createOverviewService>;

/**
 * The campaign at a glance (`GET /api/admin/now`): the battle queue from Redis, the last minutes
 * from PostgreSQL, each model's breaker, today's spend and budgets. Read at most every FRESH_MS
 * per gateway, however many consoles are open.
 */
export function createOverviewService(deps: {
  db: Db;
  battleQueue: Queue;
  roster: Pick<RosterStore, 'all'>;
  health: Pick<ModelHealthService, 'report'>;
  budget: Pick<BudgetService, 'report'>;
}) {
  let last: { at: number; figures: Promise<AdminNow> } | null = null;

  async function read(): Promise<AdminNow> {
    const [counts, oldest, activity, health, spend] = await Promise.all([
      within(2_000, () => deps.battleQueue.getJobCounts('active', 'waiting', 'prioritized')),
      within(2_000, () => deps.battleQueue.getJobs(['wait'], 0, 0, true)),
      recentActivity(deps.db),
      deps.health.report(),
      deps.budget.report(),
    ]);
    const breakers = new Map(health.models.map((m) => [m.id, m.state]));
    const started = oldest[0]?.timestamp;
    return {
      at: new Date().toISOString(),
      battles: {
        running: counts.active ?? 0,
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        oldestWaitingSeconds: started ? Math.max(0, (Date.now() - started) / 1_000) : 0,
        perMinute: activity.battles,
      },
      votesPerMinute: activity.votes,
      tokensPerSecond: Math.round((activity.outputTokens / 60) * 10) / 10,
      models: deps.roster
        .all()
        .filter((m) => !m.retired)
        .map((m) => ({
          id: m.id,
          label: m.label,
          enabled: m.enabled,
          breaker: breakers.get(m.id) ?? 'closed',
          answers5m: activity.models.get(m.id)?.answers ?? 0,
          errors5m: activity.models.get(m.id)?.errors ?? 0,
        })),
      spend: { day: spend.day, timeZone: spend.timeZone, settled: spend.today.settled, reserved: spend.today.reserved, budgets: spend.budgets },
    };
  }

  return {
    now(): Promise<AdminNow> {
      if (!last || Date.now() - last.at > FRESH_MS) {
        const figures = read();
        last = { at: Date.now(), figures };
        // A failed read is not served again.
        figures.catch(() => (last = null));
      }
      return last.figures;
    },
  };
}
