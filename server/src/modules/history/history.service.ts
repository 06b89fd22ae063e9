import { findTool } from '@duet/contracts';
import type { BattleMode, HistoryEntry, HistoryResponse, HistoryView, SpecHistoryResponse } from '@duet/contracts';
import { maskPii, maskPiiDeep } from '@duet/contracts/pii';
import { z } from 'zod';
import type { Db } from '../../infra/db.ts';
import { AppError } from '../../http/errors.ts';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import type { StatsService } from '../stats/stats.service.ts';
import { familyPercent } from '../stats/stats.service.ts';
import type { HistoryCache, RenderedPage } from './history-cache.ts';
import type { HistoryCursor, VotesListed } from './history.repo.ts';
import { findVotedBattle, listVotedBattles } from './history.repo.ts';

export type HistoryService = ReturnType<typeof createHistoryService>;

/**
 * A vote time as PostgreSQL prints a `timestamptz` (`2025-11-20 10:11:12.345678+00`, offsets like
 * `+05:30`), with real calendar values. Wider than `isUtcMicros`: cursors given out while the
 * query printed `created_at::text`, in the session's time zone, must keep working.
 */
function isVoteTime(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(text);
  if (!m) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0, offsetSeconds = 0] = m
    .slice(1)
    .map((part) => Number(part ?? 0));
  return (
    year >= 1 && month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 15 && offsetMinutes <= 59 && offsetSeconds <= 59
  );
}

/** A history cursor's key: the vote time (`isVoteTime`) and the battle id. */
const ZHistoryKeySchema = z.tuple([z.string().refine(isVoteTime), z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)]);

/** What the public sees of a battle: personal data masked in the question, its inputs and both answers. */
const publicEntry = (e: HistoryEntry): HistoryEntry => ({
  ...e,
  question: { ...e.question, text: maskPii(e.question.text), inputs: maskPiiDeep(e.question.inputs) },
  sides: {
    a: { ...e.sides.a, text: maskPii(e.sides.a.text) },
    b: { ...e.sides.b, text: maskPii(e.sides.b.text) },
  },
  ...(e.followUps
    ? {
        followUps: e.followUps.map((t) => ({
          ...t,
          text: maskPii(t.text),
          sides: { a: { ...t.sides.a, text: maskPii(t.sides.a.text) }, b: { ...t.sides.b, text: maskPii(t.sides.b.text) } },
        })),
      }
    : {}),
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
    return { list: page.entries.map(publicEntry), winRates, nextCursor: page.next ? encodeCursor([page.next.votedAt, page.next.id]) : null };
  }

  /** One page of a tool's history (`HistoryResponse`), from the cache when it holds it. */
  function history(idOrRoute: string, limit: number, cursor?: string, view: HistoryView = 'main'): Promise<RenderedPage> {
    const { slug } = toolOr404(idOrRoute);
    // Refused (400) before the cache is asked: a bad request reads and writes nothing.
    const key = cursor ? decodeCursor(cursor, ZHistoryKeySchema) : null;
    const after = key && { votedAt: key[0], id: key[1] };
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

  /** One voted battle as the public sees it (masked), or null when it is not public. */
  async function shared(id: string): Promise<HistoryEntry | null> {
    const entry = await findVotedBattle(deps.db, id);
    return entry && publicEntry(entry);
  }

  return { history, specList, shared };
}
