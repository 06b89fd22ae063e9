import type { Side } from '@duet/contracts';
import { toMicroUsd } from '@duet/contracts/cost';
import type { BudgetLedger } from '@duet/platform/budget-ledger';
import type { Logger } from 'pino';
import type { Db } from '../infra/db.ts';
import * as repo from '../store/battle.repo.ts';

export interface BattleSpend {
  /** A side this attempt stored, at its cost: its reservation is settled to it. False when Redis did not take it. */
  sideStored: (day: string, battleId: string, side: Side, costUsd: number) => Promise<boolean>;
  /**
   * The battle ended (finished, or closed as failed): what it still has reserved is settled at what
   * PostgreSQL stored for it (`known` costs when this attempt stored and settled both sides), and it
   * leaves the open reservations.
   */
  battleEnded: (day: string, battleId: string, known?: Partial<Record<Side, number>>) => Promise<void>;
}

/**
 * The worker's side of the budgets (`@duet/platform/budget-ledger`). A failure to reach Redis is
 * logged, never thrown: the battle's answers are stored, and the sweeper settles what is left
 * (`sweep-reservations.ts`).
 */
export function createBattleSpend(deps: { ledger: BudgetLedger; db: Db; logger: Logger }): BattleSpend {
  return {
    async sideStored(day, battleId, side, costUsd) {
      try {
        await deps.ledger.settle(day, battleId, { [side]: toMicroUsd(costUsd) });
        return true;
      } catch (err) {
        deps.logger.warn({ err, battleId, side }, 'could not settle a side in the budgets; the sweeper will');
        return false;
      }
    },
    async battleEnded(day, battleId, known) {
      try {
        const costs = known?.a !== undefined && known.b !== undefined ? known : await repo.answerCosts(deps.db, battleId);
        await deps.ledger.close(day, battleId, costs);
      } catch (err) {
        deps.logger.warn({ err, battleId }, "could not close a battle's reservation; the sweeper will");
      }
    },
  };
}
