import { findTool, SIDES } from '@duet/contracts';
import { answerCost } from './answer-cost.ts';
import type { RunBattleDeps } from './run-battle.handler.ts';
import { userMessage } from './run-side.ts';
import * as repo from '../store/battle.repo.ts';

/**
 * Ends a battle that cannot be run (its job failed for good, or the sweeper gave up on it): every
 * side not stored is stored as failed, with what text its stream had (and what that text is
 * estimated to have cost), and viewers are told.
 */
export async function closeBattle(
  deps: Pick<RunBattleDeps, 'db' | 'publisher' | 'logger' | 'spending'>,
  battleId: string,
): Promise<void> {
  const battle = await repo.loadBattle(deps.db, battleId);
  if (!battle || battle.status === 'finished') return;
  const stored = await repo.finishedSides(deps.db, battleId);
  const resume = await deps.publisher.resumePoint(battleId).catch(() => null);
  const error = { code: 'battle_failed' as const, message: userMessage('battle_failed') };
  const tool = findTool(battle.tool);
  const prompt = tool?.prompt({ inputs: battle.inputs, text: battle.text, hasImage: battle.hasImage, lang: battle.lang });
  for (const side of SIDES.filter((s) => !stored.has(s))) {
    const text = resume?.[side].text ?? '';
    const stats = { finishReason: 'error' as const, inputTokens: null, outputTokens: null, ttftMs: null, durationMs: 0 };
    const model = battle.models[side];
    const cost = answerCost({
      prices: deps.spending.pricesFor(model),
      stats,
      text,
      question: prompt ? [prompt.system, prompt.user] : [battle.text],
      hasImage: battle.hasImage,
      maxOutputTokens: tool?.maxTokens ?? 0,
    });
    await repo.insertAnswer(deps.db, { battleId, side, model, text, stats, error, cost }, deps.spending.timeZone);
    // One try: if Redis is away, snapshots read the stored answer and gateways ask viewers to resync.
    await deps.publisher.publish({ type: 'error', battleId, side, ...error, chars: text.length }).catch(() => undefined);
  }
  await repo.markFinished(deps.db, battleId);
  if (battle.budgetDay) await deps.spending.budget.battleEnded(battle.budgetDay, battleId);
  deps.logger.warn({ battleId, sides: SIDES.filter((s) => !stored.has(s)) }, 'closed a battle that could not be completed');
}
