/**
 * The operators' API calls: each carries `Authorization: Bearer <credential>`, only ever to this
 * origin's `/api/admin/` (an address anywhere else is refused before a request is made). A 401 or
 * 403 signs the console out. Answers are checked against their contract.
 */
import type { ErrorResponse } from '@duet/contracts';
import { ApiError } from './http.ts';
import { currentBearer, refuseCredential } from './admin-session.ts';

const ADMIN_API = '/api/admin/';

/** What an answer is checked with: a contract's zod schema. */
export interface Contract<T> {
  parse: (value: unknown) => T;
}

/** The URL of an admin API path on this origin; throws for anything else. */
export function adminUrl(path: string): string {
  const url = new URL(path, window.location.origin);
  if (url.origin !== window.location.origin || !url.pathname.startsWith(ADMIN_API)) {
    throw new Error(`Not an address of this site's admin API: ${path}`);
  }
  return url.href;
}

/** A query string of the set values only. */
export function queryString(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') q.set(key, String(value));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * One call. `credential` tries a credential before it is kept (the sign-in): its refusal then
 * only throws, without signing anything out.
 */
export async function adminFetch(path: string, init: RequestInit = {}, credential?: string): Promise<Response> {
  const url = adminUrl(path);
  const bearer = credential ?? (await currentBearer());
  if (!bearer) {
    refuseCredential(401);
    throw new ApiError(401, 'unauthorized', 'Sign in again.');
  }
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${bearer}`);
  if (init.body && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers, credentials: 'same-origin', redirect: 'error', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network_error', 'The network request failed');
  }
  if (res.ok) return res;
  const body = (await res.json().catch(() => null)) as ErrorResponse | null;
  const retryAfter = Number(res.headers.get('retry-after'));
  const err = new ApiError(
    res.status,
    body?.error?.code ?? 'http_error',
    body?.error?.message ?? res.statusText,
    body?.error?.issues ?? [],
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
  if ((res.status === 401 || res.status === 403) && credential === undefined) refuseCredential(res.status);
  throw err;
}

export async function adminGet<T>(path: string, contract: Contract<T>, credential?: string): Promise<T> {
  const res = await adminFetch(path, {}, credential);
  return contract.parse(await res.json());
}

export async function adminSend<T>(method: 'POST' | 'PUT' | 'PATCH', path: string, body: unknown, contract: Contract<T>): Promise<T> {
  const res = await adminFetch(path, { method, body: JSON.stringify(body) });
  return contract.parse(await res.json());
}

/** A file behind the bearer header (a battle's image, the audit log), as a Blob. */
export async function adminBlob(path: string): Promise<Blob> {
  return (await adminFetch(path)).blob();
}
