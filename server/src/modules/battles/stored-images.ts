import { AppError } from '../../http/errors.ts';
import type { Db } from '../../infra/db.ts';
import * as repo from './battle.repo.ts';
import type { ImageCleaner } from './image-cleaner.ts';

/** What a pass over the images stored before cleaning existed did. */
export interface StoredImagesCleaned {
  /** Cleaned and kept. */
  cleaned: number;
  /** Could not be read, or over the pixel budget: deleted, as such an upload is refused today. */
  deleted: number;
}

/**
 * Cleans every image stored as it was sent (before images were cleaned on arrival, or by an older
 * gateway during a rolling update), `batchSize` at a time, replacing each with its cleaned bytes.
 * Until then such an image is not served. Safe to run again, and beside running gateways.
 */
export async function cleanStoredImages(deps: { db: Db; clean: ImageCleaner; batchSize?: number }): Promise<StoredImagesCleaned> {
  const done: StoredImagesCleaned = { cleaned: 0, deleted: 0 };
  for (;;) {
    const batch = await repo.findUncleanedImages(deps.db, deps.batchSize ?? 20);
    if (batch.length === 0) return done;
    for (const stored of batch) {
      const image = await deps.clean(stored.data, stored.mimeType).catch((err: unknown) => {
        // The cleaner's refusals (unreadable, too many pixels); anything else is a fault to report.
        if (err instanceof AppError) return null;
        throw err;
      });
      await repo.replaceImage(deps.db, stored.battleId, image);
      done[image ? 'cleaned' : 'deleted'] += 1;
    }
  }
}
