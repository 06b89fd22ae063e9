import type { HistoryEntry, HistoryResponse } from '@duet/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { HistoryPages } from './history-query.ts';
import { cachedHistoryList, historyListOf, historyQueryKey } from './history-query.ts';

const entry = (id: string) => ({ id }) as HistoryEntry;
const page = (ids: string[], nextCursor: string | null): HistoryResponse => ({ list: ids.map(entry), winRates: [], nextCursor });

describe('the history list', () => {
  it('is every entry of the pages loaded so far, in order', () => {
    const pages: HistoryPages = { pages: [page(['c', 'b'], 'b'), page(['a'], null)], pageParams: [null, 'b'] };
    expect(historyListOf(pages).map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(historyListOf(undefined)).toEqual([]);
  });

  it('is read from the query cache for one tool, and empty until that tool’s page loaded it', () => {
    const queryClient = new QueryClient();
    expect(cachedHistoryList(queryClient, 'makeLyrics')).toEqual([]);
    queryClient.setQueryData<HistoryPages>(historyQueryKey('makeLyrics'), { pages: [page(['x'], null)], pageParams: [null] });
    expect(cachedHistoryList(queryClient, 'makeLyrics').map((e) => e.id)).toEqual(['x']);
    expect(cachedHistoryList(queryClient, 'rap-lyrics')).toEqual([]);
  });
});
