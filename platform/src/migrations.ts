import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The SQL migrations (`platform/migrations/`): the gateway (or `npm run migrate`) applies them, every process checks them. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * The names node-pg-migrate records in `pgmigrations` for every migration file (the file name
 * without its extension): the database is up to date when it lists them all.
 */
export function migrationNames(dir: string = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .map((f) => path.parse(f).name)
    .sort();
}
