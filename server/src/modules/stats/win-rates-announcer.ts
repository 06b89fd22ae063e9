import throttle from 'lodash-es/throttle.js';
import type { Logger } from 'pino';
import type { DuetBus } from '../../events/duet-events.ts';
import type { StatsService } from './stats.service.ts';

/** At most one `winRates.changed` per tool this often from one gateway while votes keep coming. */
export const WIN_RATES_INTERVAL_MS = 250;

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
export function announceWinRates(events: DuetBus, stats: StatsService, logger: Logger, intervalMs = WIN_RATES_INTERVAL_MS): void {
  const perTool = new Map<string, () => void>();
  events.on('vote.counted', ({ tool }) => {
    let announce = perTool.get(tool);
    if (!announce) {
      let last: Promise<void> = Promise.resolve();
      announce = throttle(() => {
        last = last.then(async () => {
          try {
            events.emit('winRates.changed', { tool, winRates: await stats.winRates(tool) });
          } catch (err) {
            logger.warn({ err, tool }, 'could not read the win rates to announce');
          }
        });
      }, intervalMs);
      perTool.set(tool, announce);
    }
    announce();
  });
}
