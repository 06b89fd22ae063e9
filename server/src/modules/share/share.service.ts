import { existsSync } from 'node:fs';
import type { HistoryEntry } from '@duet/contracts';
import type { Language } from '@duet/contracts/limits';
import type { RedisClient } from '@duet/platform/redis-connection';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { AppError } from '../../http/errors.ts';
import { BARE_SHELL, shareCard, sharePageHtml } from './share-page.ts';
import { renderPreview } from './share-preview.ts';

export type ShareService = ReturnType<typeof createShareService>;

/** How long a rendered preview is kept: long after a link's first wave of previews. */
const PREVIEW_TTL_SECONDS = 7 * 24 * 3600;

export interface ShareDeps {
  /** The battle as the public sees it (voted, passed moderation, personal data masked), or null. */
  findShared: (id: string) => Promise<HistoryEntry | null>;
  redis: RedisClient;
  previewKey: (battleId: string, lang: Language) => string;
  /** The built client's `index.html`, or null when the gateway serves the API only. */
  shell: () => string | null;
  /** Font files the preview's text is set in (Korean needs a CJK font). */
  fontFiles: readonly string[];
  /** Previews rendered at once by this gateway; the rest wait (each render loads its fonts). */
  renderConcurrency?: number;
  logger: Logger;
}

/**
 * A voted battle's public page (`/b/:id`): the battle as history shows it, its page with the link
 * preview's tags, and the preview image, rendered once per language and kept in Redis for every
 * gateway. Anything not public (unknown, not voted, not passed moderation, taken down) is a 404.
 */
export function createShareService(deps: ShareDeps) {
  const missing = deps.fontFiles.filter((f) => !existsSync(f));
  // Without them the previews still render, with no words: worth a line in the log, not a refusal to start.
  if (missing.length > 0) deps.logger.warn({ missing }, 'share preview fonts not found (SHARE_FONT_FILES)');
  const renders = pLimit(deps.renderConcurrency ?? 2);
  /** One render per battle and language at a time on this gateway, however many crawlers ask. */
  const inFlight = new Map<string, Promise<Buffer>>();

  async function battle(id: string): Promise<HistoryEntry> {
    const entry = await deps.findShared(id);
    if (!entry) throw new AppError(404, 'not_found', 'No such battle, or it is not public');
    return entry;
  }

  async function page(id: string, lang: Language, origin: string): Promise<string> {
    const entry = await battle(id);
    return sharePageHtml(deps.shell() ?? BARE_SHELL, shareCard(entry, lang, origin));
  }

  /** The preview PNG, and whether it came from the cache. */
  async function preview(id: string, lang: Language): Promise<{ png: Buffer; cached: boolean }> {
    const entry = await battle(id);
    const key = deps.previewKey(id, lang);
    const kept = await deps.redis.getBuffer(key);
    if (kept) return { png: kept, cached: true };
    let pending = inFlight.get(key);
    if (!pending) {
      pending = renders(async () => {
        const png = await renderPreview(entry, lang, deps.fontFiles);
        // Kept for every gateway; a failed write only means the next request renders it again.
        await deps.redis.set(key, png, 'EX', PREVIEW_TTL_SECONDS).catch((err: unknown) => deps.logger.warn({ err }, 'share preview not cached'));
        return png;
      }).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return { png: await pending, cached: false };
  }

  return { battle, page, preview };
}
