import type { Logger } from 'pino';
import type { DuetBus } from '../events/duet-events.ts';
import { requestLogger } from './request-log.ts';

/**
 * One log line for each thing that happens to a battle on the gateway, with its `battleId` (to
 * follow it into the worker's log) and, since it happens while a request is served, that
 * request's `reqId`.
 */
export function logBattleEvents(events: DuetBus, logger: Logger): void {
  events.on('battle.created', ({ battleId, tool }) => requestLogger(logger).info({ battleId, tool }, 'battle created'));
  events.on('battle.cancelled', ({ battleId }) => requestLogger(logger).info({ battleId }, 'battle cancelled'));
  events.on('vote.recorded', ({ battleId, tool, winner, counted, reason }) =>
    requestLogger(logger).info({ battleId, tool, winner, counted, reason }, 'vote recorded'),
  );
}
