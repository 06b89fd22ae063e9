import { applySideEvent, emptySide, parseStreamEntries, sideEnded } from '@duet/shared';
import type { BattleSnapshot, RedisKeys, SideView } from '@duet/shared';
import type { Redis } from 'ioredis';
import type { Db } from '../infra/db.ts';
import type { BattleService } from '../modules/battles/battle.service.ts';
import { findAnswers, hasVote } from '../modules/battles/battle.repo.ts';
import type { StoredAnswer } from '../modules/battles/battle.repo.ts';

export interface SnapshotDeps {
  db: Db;
  redis: Redis;
  keys: RedisKeys;
  battles: BattleService;
}

/** A side rebuilt from its stored answer, for battles whose live stream has expired. */
function sideFromAnswer(label: string, a: StoredAnswer): SideView {
  const ended = { ...emptySide(label), text: a.text, progress: 100 };
  if (a.finishReason === 'error') {
    return { ...ended, state: 'error', error: { code: a.errorCode ?? 'provider_error', message: a.errorMessage ?? '' } };
  }
  return {
    ...ended,
    state: 'done',
    stats: {
      finishReason: a.finishReason,
      inputTokens: a.inputTokens,
      outputTokens: a.outputTokens,
      ttftMs: a.ttftMs,
      durationMs: a.durationMs,
    },
  };
}

/**
 * Everything a viewer needs to draw a battle right now: the live stream folded up, or the
 * stored answers once the stream is gone. Null when there is no such battle.
 */
export async function buildSnapshot(deps: SnapshotDeps, battleId: string): Promise<BattleSnapshot | null> {
  const meta = await deps.battles.labels(battleId);
  if (!meta) return null;
  const sides = { a: emptySide(meta.labels.a), b: emptySide(meta.labels.b) };
  const events = parseStreamEntries(await deps.redis.xrange(deps.keys.battleStream(battleId), '-', '+'));
  for (const e of events) sides[e.side] = applySideEvent(sides[e.side], e).view;
  if (events.length === 0) {
    for (const answer of await findAnswers(deps.db, battleId)) {
      sides[answer.side] = sideFromAnswer(sides[answer.side].label, answer);
    }
  }
  return {
    battleId,
    tool: meta.tool,
    sides,
    finished: sideEnded(sides.a) && sideEnded(sides.b),
    voted: await hasVote(deps.db, battleId),
  };
}
