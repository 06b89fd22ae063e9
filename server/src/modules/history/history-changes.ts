import type { RedisKeys } from '@duet/contracts';
import { HISTORY_CACHE_TTL_MS, raiseHistoryVersions } from '@duet/platform/history-version';
import type { RedisClient } from '@duet/platform/redis-connection';
import throttle from 'lodash-es/throttle.js';
import type { Logger } from 'pino';
import type { DuetBus } from '../../events/duet-events.ts';
import type { HistoryCache } from './history-cache.ts';

export interface HistoryChanges {
  /** Raises the tool's history version now (an operator's takedown or restore); never throws. */
  now: (tool: string) => Promise<void>;
  /**
   * Raises it at the end of this turn of the event loop, once for every vote on the tool in the
   * turn, with the other tools' raises in one write to Redis: before the next request a reader of
   * this gateway can send (the voter's refetch comes after the vote's response), and without a
   * Redis command per vote (one each slowed the vote path measurably: docs/benchmarks.md, votes).
   */
  soon: (tool: string) => void;
}

/**
 * The gateway's side of the history versions (`@duet/platform/history-version`). The cache is told of
 * each raise as the change is made, so this gateway's reads of the tool wait for it; a raise that
 * fails (Redis refusing writes, away) makes this gateway render the tool's pages for their
 * time-to-live (`HistoryCache.raising`) and is logged once every 10 s, not once a vote.
 */
export function historyChanges(deps: { redis: RedisClient; keys: RedisKeys; cache: HistoryCache; logger: Logger }): HistoryChanges {
  const warn = throttle(
    (err: unknown, tools: readonly string[]) =>
      deps.logger.warn({ err, tools }, `could not raise history versions: this gateway renders those tools' pages, others may show the old ones for ${HISTORY_CACHE_TTL_MS / 1000} s`),
    HISTORY_CACHE_TTL_MS,
    { trailing: false },
  );
  const raise = (tools: readonly string[]): Promise<boolean> =>
    raiseHistoryVersions(deps.redis, deps.keys, tools).then(
      () => true,
      (err: unknown) => {
        warn(err, tools);
        return false;
      },
    );
  /** This turn's votes: their tools, and the raise of them all sent at the turn's end. */
  let turn: { tools: Set<string>; raised: Promise<boolean> } | undefined;
  return {
    async now(tool) {
      const raised = raise([tool]);
      deps.cache.raising(tool, raised);
      await raised;
    },
    soon(tool) {
      if (turn === undefined) {
        const tools = new Set<string>();
        const raised = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          turn = undefined;
          return raise([...tools]);
        });
        turn = { tools, raised };
      }
      if (turn.tools.has(tool)) return;
      turn.tools.add(tool);
      deps.cache.raising(tool, turn.raised);
    },
  };
}

/**
 * Raises a tool's history version for every vote on it, at the end of the vote's turn: before the
 * voter's next request can be read, so their refetch of the history finds the new version.
 */
export function raiseOnVotes(events: DuetBus, changes: HistoryChanges): void {
  events.on('vote.recorded', ({ tool }) => changes.soon(tool));
}
