import { findTool } from '@duet/contracts';
import type { BattleMode, HistoryEntry, HistoryResponse, HistoryView, SpecHistoryResponse } from '@duet/contracts';
import { maskPii, maskPiiDeep } from '@duet/contracts/pii';
import type { Db } from '../../infra/db.ts';
import { AppError } from '../../http/errors.ts';
import type { StatsService } from '../stats/stats.service.ts';
import { familyPercent } from '../stats/stats.service.ts';
import type { HistoryCache, RenderedPage } from './history-cache.ts';
import type { HistoryCursor, VotesListed } from './history.repo.ts';
import { listVotedBattles } from './history.repo.ts';

export type HistoryService = ReturnType<typeof createHistoryService>;

const encodeCursor = (c: HistoryCursor): string => Buffer.from(JSON.stringify([c.votedAt, c.id])).toString('base64url');

/**
 * A cursor exactly as `encodeCursor` wrote it: a battle id and a vote time as PostgreSQL prints a
 * `timestamptz` (`2025-11-20 10:11:12.345678+00`, offsets like `+05:30`), with real calendar values.
 * Anything else is refused here, before PostgreSQL sees it.
 */
function decodeCursor(raw: string): HistoryCursor {
  const refused = new AppError(400, 'validation_failed', 'cursor: not a cursor this API gave out');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw refused;
  const [votedAt, id] = parsed as unknown[];
  if (typeof votedAt !== 'string' || typeof id !== 'string') throw refused;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw refused;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(votedAt);
  if (!m) throw refused;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0, offsetSeconds = 0] = m
    .slice(1)
    .map((part) => Number(part ?? 0));
  const valid =
    year >= 1 && month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 15 && offsetMinutes <= 59 && offsetSeconds <= 59;
  // The same text must come out again: no extra JSON whitespace, no stray base64 characters.
  if (!valid || encodeCursor({ votedAt, id }) !== raw) throw refused;
  return { votedAt, id };
}

/** What the public sees of a battle: personal data masked in the question, its inputs and both answers. */
const publicEntry = (e: HistoryEntry): HistoryEntry => ({
  ...e,
  question: { ...e.question, text: maskPii(e.question.text), inputs: maskPiiDeep(e.question.inputs) },
  sides: {
    a: { ...e.sides.a, text: maskPii(e.sides.a.text) },
    b: { ...e.sides.b, text: maskPii(e.sides.b.text) },
  },
});

export function createHistoryService(deps: { db: Db; stats: StatsService; cache: HistoryCache; mode: BattleMode }) {
  // The main view holds the deployment's battles: blind ones (all of them where every battle is named).
  const listed = (view: HistoryView): VotesListed => (view === 'chosen' ? 'named' : deps.mode === 'blind' ? 'not_named' : 'all');

  const toolOr404 = (idOrRoute: string) => {
    const tool = findTool(idOrRoute);
    if (!tool) throw new AppError(404, 'unknown_tool', `There is no tool called "${idOrRoute}"`);
    return tool;
  };

  async function render(slug: string, limit: number, after: HistoryCursor | null, view: HistoryView = 'main'): Promise<HistoryResponse> {
    // Win rates belong to the first page; later pages only carry more entries.
    const [page, winRates] = await Promise.all([
      listVotedBattles(deps.db, slug, limit, after, listed(view)),
      after ? Promise.resolve([]) : deps.stats.winRates(slug),
    ]);
    return { list: page.entries.map(publicEntry), winRates, nextCursor: page.next ? encodeCursor(page.next) : null };
  }

  /** One page of a tool's history (`HistoryResponse`), from the cache when it holds it. */
  function history(idOrRoute: string, limit: number, cursor?: string, view: HistoryView = 'main'): Promise<RenderedPage> {
    const { slug } = toolOr404(idOrRoute);
    // Refused (400) before the cache is asked: a bad request reads and writes nothing.
    const after = cursor ? decodeCursor(cursor) : null;
    return deps.cache.page(slug, `history ${view} ${limit} ${cursor ?? ''}`, () => render(slug, limit, after, view));
  }

  /** `GET /api/v2/user/:product/list/:id` in the specification's shape (`SpecHistoryResponse`). */
  function specList(idOrRoute: string, limit: number): Promise<RenderedPage> {
    const { slug } = toolOr404(idOrRoute);
    return deps.cache.page(slug, `spec ${limit}`, async (): Promise<SpecHistoryResponse> => {
      const { list, winRates } = await render(slug, limit, null);
      return { data: { list, gpt4WimPercent: familyPercent(winRates, 'gpt'), claude3WinPercent: familyPercent(winRates, 'claude') } };
    });
  }

  return { history, specList };
}
