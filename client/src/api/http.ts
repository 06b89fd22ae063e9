import type { ErrorResponse, QuotaFigures } from '@duet/contracts';
import { getAccessToken, setAccessToken } from '../state/auth.ts';

/** An API failure with the server's code and message (or `network_error`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: NonNullable<ErrorResponse['error']['issues']> = [],
    /** `Retry-After`, in seconds, when the answer gave one. */
    readonly retryAfterSeconds: number | null = null,
    /** With `quota_exceeded`: the day's quota, and an account's when not signed in. */
    readonly quota: QuotaFigures | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Calls the API; answers the parsed JSON or throws an `ApiError`. Sends the stored session when
 * there is one. With `anonymousFallback` (calls anyone may make: asking, voting), a session the
 * server calls invalid (expired, revoked) is removed and the call made once more without it, so
 * an old session never blocks them.
 */
export async function api<T>(path: string, init: RequestInit = {}, opts: { anonymousFallback?: boolean } = {}): Promise<T> {
  const token = getAccessToken();
  try {
    return await send<T>(path, init, token);
  } catch (err) {
    const staleSession = token && err instanceof ApiError && err.status === 412 && err.code === 'invalid_token';
    if (!opts.anonymousFallback || !staleSession) throw err;
    setAccessToken(null);
    return send<T>(path, init, '');
  }
}

async function send<T>(path: string, init: RequestInit, token: string): Promise<T> {
  const headers = new Headers(init.headers);
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (init.body && !(init.body instanceof FormData) && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers });
  } catch {
    throw new ApiError(0, 'network_error', 'The network request failed');
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = (body as ErrorResponse | null)?.error;
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new ApiError(
      res.status,
      err?.code ?? 'http_error',
      err?.message ?? res.statusText,
      err?.issues ?? [],
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      err?.quota ?? null,
    );
  }
  return body as T;
}

export const postJson = <T>(path: string, body: unknown, opts: { anonymousFallback?: boolean } = {}): Promise<T> =>
  api<T>(path, { method: 'POST', body: JSON.stringify(body) }, opts);
