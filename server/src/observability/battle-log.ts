import type { Logger } from 'pino';
import type { DuetBus } from '../events/duet-events.ts';
import { logWithRequest, requestLogger } from '../http/request-log.ts';

/**
 * One log line for each thing that happens to a battle on the gateway, with its `battleId` (to
 * follow it into the worker's log) and, since it happens while a request is served, that
 * request's `reqId`. A vote's facts go on its request's line.
 */
export function logBattleEvents(events: DuetBus, logger: Logger): void {
  events.on('battle.created', ({ battleId, tool }) => requestLogger(logger).info({ battleId, tool }, 'battle created'));
  events.on('battle.cancelled', ({ battleId }) => requestLogger(logger).info({ battleId }, 'battle cancelled'));
  // On the vote request's own line (`request completed`): one line a vote.
  events.on('vote.recorded', ({ battleId, tool, winner, counted, reason }) =>
    logWithRequest(logger, { battleId, tool, winner, counted, reason }, 'vote recorded'),
  );
}
