import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { RedisKeys } from '@duet/contracts';
import { freshHistoryVersion, HISTORY_CACHE_TTL_MS } from '@duet/platform/history-version';
import type { RedisClient } from '@duet/platform/redis-connection';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../../http/response-compression.ts';

export type PageEncoding = 'br' | 'gzip';

/** A rendered page: its JSON, that JSON's `ETag`, and its compressed forms, each made once, when first asked for. */
export interface RenderedPage {
  json: string;
  etag: string;
  encoded: (encoding: PageEncoding) => Buffer;
}

export interface HistoryCache {
  /**
   * One history page of `tool`: rendered by `render` at most once per version of the tool's
   * history on this gateway. `page` names the page within the tool (kind, size, cursor).
   */
  page: (tool: string, page: string, render: () => Promise<unknown>) => Promise<RenderedPage>;
  /**
   * A raise of `tool`'s version is on its way to Redis (`raised` says whether it landed): reads of
   * the tool on this gateway wait for it before they read the version, so the change's author, whose
   * next read may reach Redis while the raise is still in flight, never gets a page from before it.
   * If it failed (Redis refusing writes), this gateway drops the tool's kept pages and renders them
   * for every read for the pages' time-to-live; other gateways show the change within that time.
   */
  raising: (tool: string, raised: Promise<boolean>) => void;
}

/**
 * Rendered history pages, kept in this gateway's memory under the tool's history version in Redis
 * (`@duet/platform/history-version`). A campaign's visitors read the same first pages over and over,
 * and a page of answers costs the gateway milliseconds of CPU to render (the rows, the
 * personal-data masks, the JSON) and compress; a page served from here costs one Redis `GET`, and its
 * compressed bytes are sent as they were made for the first reader.
 *
 * Never stale after a change that raised the version: the version is read before the page, so a
 * page rendered from before a change is kept under the version before it, and a vote's own
 * refetch reads the new version (its gateway raises it before it can read the voter's next
 * request, and the refetch waits for that raise: `history-changes.ts`, `raising`). Without Redis
 * (the `GET` fails), or with the version missing (Redis restarted), pages are rendered every time,
 * as without this cache; a missing version is started again from a random number, never from one
 * a page may still be kept under.
 */
export function createHistoryCache(deps: {
  redis: RedisClient;
  keys: RedisKeys;
  maxBytes: number;
  /** The `ETag` of a JSON text, as Express makes it for the API's other answers. */
  etagOf: (json: string) => string;
  logger: Logger;
}): HistoryCache {
  const renderedPage = (json: string): RenderedPage => {
    const forms = new Map<PageEncoding, Buffer>();
    return {
      json,
      etag: deps.etagOf(json),
      encoded(encoding) {
        let bytes = forms.get(encoding);
        if (!bytes) {
          bytes =
            encoding === 'br'
              ? brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } })
              : gzipSync(json, { level: GZIP_LEVEL });
          forms.set(encoding, bytes);
        }
        return bytes;
      },
    };
  };
  const renderNow = async (render: () => Promise<unknown>) => renderedPage(JSON.stringify(await render()));
  if (deps.maxBytes <= 0) return { page: (_tool, _page, render) => renderNow(render), raising: () => undefined };

  const pages = new LRUCache<string, RenderedPage>({
    maxSize: deps.maxBytes,
    // The JSON in memory (two bytes a character for text outside Latin-1, Korean) and its two
    // compressed forms (made after this count, about one byte a character each at most).
    sizeCalculation: (p) => Math.max(1, p.json.length * 4),
    ttl: HISTORY_CACHE_TTL_MS,
  });
  /** Pages being rendered: readers arriving meanwhile wait for the same rendering. */
  const rendering = new Map<string, Promise<RenderedPage>>();
  /** Tools whose last change could not raise the version: rendered for every read until then (ms). */
  const renderUntil = new Map<string, number>();
  /** The last raise in flight per tool. */
  const raisings = new Map<string, Promise<boolean>>();

  async function versionOf(tool: string): Promise<string | null> {
    const raise = raisings.get(tool);
    if (raise !== undefined) await raise;
    const until = renderUntil.get(tool);
    if (until !== undefined) {
      if (Date.now() < until) return null;
      renderUntil.delete(tool);
    }
    const key = deps.keys.historyVersion(tool);
    try {
      const version = await deps.redis.get(key);
      // Started again at a number no kept page is under; this read renders (the next ones keep).
      if (version === null) await deps.redis.set(key, freshHistoryVersion(), 'NX');
      return version;
    } catch (err) {
      deps.logger.debug({ err: (err as Error).message, tool }, 'history version unreadable: rendering the page');
      return null;
    }
  }

  return {
    async page(tool, page, render) {
      const version = await versionOf(tool);
      if (version === null) return renderNow(render);
      const key = `${tool}\n${version}\n${page}`;
      const kept = pages.get(key) ?? rendering.get(key);
      if (kept !== undefined) return kept;
      // The page's time-to-live counts from before its rows were read, not from when they came.
      const startedAt = Date.now();
      const made = renderNow(render);
      rendering.set(key, made);
      try {
        const rendered = await made;
        const ttl = HISTORY_CACHE_TTL_MS - (Date.now() - startedAt);
        if (ttl > 0) pages.set(key, rendered, { ttl });
      } finally {
        rendering.delete(key);
      }
      return made;
    },
    raising(tool, raised) {
      raisings.set(tool, raised);
      // Registered before any reader waits on `raised`, so this runs before they go on.
      void raised.then((ok) => {
        if (raisings.get(tool) === raised) raisings.delete(tool);
        if (ok) return;
        renderUntil.set(tool, Date.now() + HISTORY_CACHE_TTL_MS);
        for (const key of pages.keys()) if (key.startsWith(`${tool}\n`)) pages.delete(key);
      });
    },
  };
}
