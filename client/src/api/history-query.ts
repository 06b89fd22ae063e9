import type { HistoryEntry, HistoryResponse } from '@duet/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';

/** The query cache's key for a tool's history pages (a vote invalidates it). */
export const historyQueryKey = (tool: string) => ['history', tool] as const;

/** A tool's history as the query cache holds it: the pages loaded so far, by cursor. */
export type HistoryPages = InfiniteData<HistoryResponse, string | null>;

/** The specification's history list: every entry of the pages loaded so far, newest first. */
export const historyListOf = (data: Pick<HistoryPages, 'pages'> | undefined): HistoryEntry[] => data?.pages.flatMap((p) => p.list) ?? [];

/** The history list of a tool as the query cache holds it now (empty until its page loaded it). */
export const cachedHistoryList = (queryClient: QueryClient, tool: string): HistoryEntry[] =>
  historyListOf(queryClient.getQueryData<HistoryPages>(historyQueryKey(tool)));
