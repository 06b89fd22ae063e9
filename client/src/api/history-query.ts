import type { HistoryEntry, HistoryResponse } from '@duet/contracts';
import type { HistoryView } from '@duet/contracts/schemas/history.schema';
import { HISTORY_VIEWS } from '@duet/contracts/schemas/history.schema';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';

/** The query cache's key for every view of a tool's history (a vote invalidates them all). */
export const historyToolKey = (tool: string) => ['history', tool] as const;

/** The query cache's key for one view of a tool's history pages. */
export const historyQueryKey = (tool: string, view: HistoryView = 'main') => [...historyToolKey(tool), view] as const;

/** The view a page address asks for (`?view=chosen`); anything else is the main view. */
export const historyViewOf = (param: string | null): HistoryView =>
  HISTORY_VIEWS.find((view) => view === param) ?? 'main';

/** A tool's history as the query cache holds it: the pages loaded so far, by cursor. */
export type HistoryPages = InfiniteData<HistoryResponse, string | null>;

/** The specification's history list: every entry of the pages loaded so far, newest first. */
export const historyListOf = (data: Pick<HistoryPages, 'pages'> | undefined): HistoryEntry[] => data?.pages.flatMap((p) => p.list) ?? [];

/** The history list of a tool as the query cache holds it now (empty until its page loaded it). */
export const cachedHistoryList = (queryClient: QueryClient, tool: string, view: HistoryView = 'main'): HistoryEntry[] =>
  historyListOf(queryClient.getQueryData<HistoryPages>(historyQueryKey(tool, view)));
