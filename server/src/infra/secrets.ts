import { randomBytes } from 'node:crypto';
import type { Db } from './db.ts';

/**
 * A generated secret shared by every gateway on the database: the first one to ask stores 32
 * random bytes under `name`, everyone (and every restart) reads the same row back.
 */
export async function storedSecret(db: Db, name: string): Promise<Uint8Array> {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, randomBytes(32)]);
  const { rows } = await db.query<{ value: Buffer }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  const value = rows[0]?.value;
  if (!value || value.length < 32) throw new Error(`The stored secret "${name}" is missing or too short`);
  return new Uint8Array(value);
}

/**
 * A function that reads a value once and keeps it; a failed read is forgotten, so the next call
 * tries again instead of failing until a restart.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => {
    value ??= load().catch((err: unknown) => {
      value = null;
      throw err;
    });
    return value;
  };
}
