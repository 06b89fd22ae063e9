import { budgetDay, ledgerSpendOfDay } from '@duet/platform/budget-ledger';
import type { BudgetLedger } from '@duet/platform/budget-ledger';
import type { Logger } from 'pino';
import type { Db } from '../infra/db.ts';
import * as repo from '../store/battle.repo.ts';
import type { BattleSpend } from './battle-spend.ts';

/** A reservation this old whose battle ended, or never was stored, is the sweeper's to close. */
const OPEN_GRACE_MS = 5 * 60_000;

/**
 * Closes the reservations nobody closed (a gateway that died between reserving and storing its
 * battle, a worker that died between storing an answer and settling it, Redis away at the time),
 * today's and yesterday's; and raises each day's settled spend in Redis to at least what
 * PostgreSQL's ledger holds (Redis may have lost some). A battle still running keeps its reservation.
 */
export function createSweepReservations(deps: { ledger: BudgetLedger; spend: BattleSpend; db: Db; timeZone: string; logger: Logger }) {
  return async function sweepReservations(now = new Date()): Promise<{ closed: number }> {
    let closed = 0;
    const days = [...new Set([budgetDay(now, deps.timeZone), budgetDay(new Date(now.getTime() - 86_400_000), deps.timeZone)])];
    for (const day of days) {
      const open = await deps.ledger.openBattles(day, now.getTime() - OPEN_GRACE_MS);
      const states = await repo.battleStates(deps.db, open);
      for (const battleId of open) {
        const state = states.get(battleId);
        if (state === 'unfinished') continue;
        // Never stored: nothing was spent. Finished: settled at what was stored.
        await deps.spend.battleEnded(day, battleId, state === undefined ? { a: 0, b: 0 } : undefined);
        closed += 1;
      }
      await deps.ledger.settledAtLeast(day, await ledgerSpendOfDay(deps.db, day, deps.timeZone));
    }
    if (closed) deps.logger.warn({ closed }, 'closed budget reservations their battles had left open');
    return { closed };
  };
}
