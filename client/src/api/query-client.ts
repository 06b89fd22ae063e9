import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './http.ts';

/** The specification's fetch-cache figures: 3 retries, delay doubling from 1 s to 30 s, 5 min gc. */
export const retryDelay = (attempt: number): number => Math.min(1_000 * 2 ** attempt, 30_000);

/** Client errors (4xx) are answers, not accidents: retrying them changes nothing. */
const retry = (failures: number, error: unknown): boolean =>
  failures < 3 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry, retryDelay, gcTime: 5 * 60_000, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
