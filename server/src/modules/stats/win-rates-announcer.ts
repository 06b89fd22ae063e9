import type { DebouncedFunc } from 'lodash-es';
import throttle from 'lodash-es/throttle.js';
import type { Logger } from 'pino';
import type { DuetBus } from '../../events/duet-events.ts';
import type { StatsService } from './stats.service.ts';

/** At most one `winRates.changed` per tool this often from one gateway while votes keep coming. */
export const WIN_RATES_INTERVAL_MS = 250;

export interface WinRatesAnnouncer {
  /**
   * Announces at once what is still waiting for its turn, waits for the announcements being read,
   * and takes no more votes: for a gateway that is closing, before its Redis connections do (an
   * announcement made after them would be a broadcast on a closed connection).
   */
  stop: () => Promise<void>;
}

/**
 * Says when counted votes changed a tool's win rates, with the figures as they stand: the first
 * vote's at once, then at most one announcement per tool per `intervalMs` while votes keep coming,
 * so a campaign's votes are not each a broadcast to every watcher on every gateway.
 *
 * The figures are read again rather than taken from a vote: two votes committing at once each see
 * the counters before the other's commit, so the last vote to arrive may carry the older figures.
 * A read that starts after a vote's commit sees it; reads of one tool run one after another, so a
 * slow read never overtakes a later one.
 */
export function announceWinRates(events: DuetBus, stats: StatsService, logger: Logger, intervalMs = WIN_RATES_INTERVAL_MS): WinRatesAnnouncer {
  const perTool = new Map<string, { announce: DebouncedFunc<() => void>; done: () => Promise<void> }>();
  let stopped = false;
  events.on('vote.counted', ({ tool }) => {
    if (stopped) return;
    let entry = perTool.get(tool);
    if (!entry) {
      let last: Promise<void> = Promise.resolve();
      const announce = throttle(() => {
        last = last.then(async () => {
          try {
            events.emit('winRates.changed', { tool, winRates: await stats.winRates(tool) });
          } catch (err) {
            logger.warn({ err, tool }, 'could not read the win rates to announce');
          }
        });
      }, intervalMs);
      entry = { announce, done: () => last };
      perTool.set(tool, entry);
    }
    entry.announce();
  });
  return {
    stop: async () => {
      stopped = true;
      for (const { announce } of perTool.values()) announce.flush();
      await Promise.all([...perTool.values()].map(({ done }) => done()));
    },
  };
}
