import { findTool } from '@duet/shared';
import type { HistoryResponse, ModelFamily, SpecHistoryResponse, WinRate } from '@duet/shared';
import type { Db } from '../../infra/db.ts';
import { AppError } from '../../http/errors.ts';
import { listWinRates, winPercent } from '../battles/battle.repo.ts';
import type { HistoryCursor } from './history.repo.ts';
import { listVotedBattles } from './history.repo.ts';

export type HistoryService = ReturnType<typeof createHistoryService>;

const encodeCursor = (c: HistoryCursor): string => Buffer.from(JSON.stringify([c.votedAt, c.id])).toString('base64url');

function decodeCursor(raw: string): HistoryCursor {
  try {
    const [votedAt, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    if (typeof votedAt === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id) && !Number.isNaN(Date.parse(votedAt))) {
      return { votedAt, id };
    }
  } catch {
    // fall through
  }
  throw new AppError(400, 'validation_failed', 'cursor: not a cursor this API gave out');
}

/** One family's share of wins on a tool, over all its models (the specification's two-model view). */
const familyPercent = (rates: WinRate[], family: ModelFamily): number => {
  const mine = rates.filter((r) => r.family === family);
  return winPercent(
    mine.reduce((n, r) => n + r.wins, 0),
    mine.reduce((n, r) => n + r.battles, 0),
  );
};

export function createHistoryService(deps: { db: Db }) {
  const toolOr404 = (idOrRoute: string) => {
    const tool = findTool(idOrRoute);
    if (!tool) throw new AppError(404, 'unknown_tool', `There is no tool called "${idOrRoute}"`);
    return tool;
  };

  async function history(idOrRoute: string, limit: number, cursor?: string): Promise<HistoryResponse> {
    const tool = toolOr404(idOrRoute);
    // Win rates belong to the first page; later pages only carry more entries.
    const [page, winRates] = await Promise.all([
      listVotedBattles(deps.db, tool.slug, limit, cursor ? decodeCursor(cursor) : null),
      cursor ? Promise.resolve([]) : listWinRates(deps.db, tool.slug),
    ]);
    return { list: page.entries, winRates, nextCursor: page.next ? encodeCursor(page.next) : null };
  }

  /** `GET /api/v2/user/:product/list/:id` in the specification's shape. */
  async function specList(idOrRoute: string, limit: number): Promise<SpecHistoryResponse> {
    const { list, winRates } = await history(idOrRoute, limit);
    return {
      data: { list, gpt4WimPercent: familyPercent(winRates, 'gpt'), claude3WinPercent: familyPercent(winRates, 'claude') },
    };
  }

  return { history, specList };
}
