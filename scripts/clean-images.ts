/**
 * Cleans the images stored before Duet cleaned them on arrival (EXIF with its GPS position and
 * every other metadata block dropped, orientation applied, long side capped): run it once after
 * upgrading, beside running gateways; those images are not served until it has.
 *   npm run clean-images
 * Reads DATABASE_URL and the gateway's image settings (IMAGE_MAX_SIDE_PX, IMAGE_MAX_MEGAPIXELS).
 */
import { loadGatewayConfig } from '../server/src/config.ts';
import { createDb } from '../server/src/infra/db.ts';
import { createImageCleaner } from '../server/src/modules/battles/image-cleaner.ts';
import { cleanStoredImages } from '../server/src/modules/battles/stored-images.ts';

const config = loadGatewayConfig();
const db = createDb(config.databaseUrl, 1, 'duet-clean-images', config.dbQueryTimeoutMs);
try {
  const done = await cleanStoredImages({ db, clean: createImageCleaner({ ...config.images, concurrency: 1 }) });
  console.log(`Images cleaned: ${done.cleaned}; deleted as unreadable or too large: ${done.deleted}.`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await db.end();
}
