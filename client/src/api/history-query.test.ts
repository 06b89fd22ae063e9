import type { HistoryEntry, HistoryResponse } from '@duet/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { HistoryPages } from './history-query.ts';
import { cachedHistoryList, historyListOf, historyQueryKey, historyToolKey, historyViewOf } from './history-query.ts';

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

  it('keeps each view of a tool’s history apart, under one key for the tool', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<HistoryPages>(historyQueryKey('makeLyrics', 'chosen'), { pages: [page(['n'], null)], pageParams: [null] });
    expect(cachedHistoryList(queryClient, 'makeLyrics', 'chosen').map((e) => e.id)).toEqual(['n']);
    expect(cachedHistoryList(queryClient, 'makeLyrics')).toEqual([]);
    expect(historyQueryKey('makeLyrics', 'chosen').slice(0, 2)).toEqual([...historyToolKey('makeLyrics')]);
  });
});

describe('the history view of a page address', () => {
  it('is the chosen view for ?view=chosen and the main view for anything else', () => {
    expect(historyViewOf('chosen')).toBe('chosen');
    expect(historyViewOf('main')).toBe('main');
    expect(historyViewOf(null)).toBe('main');
    expect(historyViewOf('__proto__')).toBe('main');
  });
});
