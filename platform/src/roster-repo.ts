/**
 * The roster's table (`models`), read by every process and written by the gateway's admin API and
 * by the first start's seeding. Rows map to `RosterModel`s here, in one place.
 */
import type { ModelSpec, RosterModel } from '@duet/contracts';
import type { Db, DbClient } from './pg-pool.ts';

/** The columns a `RosterModel` is read from. */
export const MODEL_COLUMNS = `id, label, provider, model, family, base_url, api_key_env, weight, input_usd_per_mtok, output_usd_per_mtok,
  budget_usd_per_day, enabled, retired, updated_at, updated_by`;

export interface ModelRow {
  id: string;
  label: string;
  provider: string;
  model: string;
  family: string;
  base_url: string | null;
  api_key_env: string | null;
  weight: number;
  input_usd_per_mtok: number;
  output_usd_per_mtok: number;
  budget_usd_per_day: number | null;
  enabled: boolean;
  retired: boolean;
  updated_at: Date;
  updated_by: string | null;
}

/** A row as the processes use it. A provider or family the code does not know is kept as read: it cannot run (`whyNotRunnable`). */
export function modelOfRow(r: ModelRow): RosterModel {
  return {
    id: r.id,
    label: r.label,
    provider: r.provider as RosterModel['provider'],
    model: r.model,
    family: r.family as RosterModel['family'],
    weight: r.weight,
    ...(r.base_url !== null && { baseURL: r.base_url }),
    ...(r.api_key_env !== null && { apiKeyEnv: r.api_key_env }),
    inputUsdPerMTok: r.input_usd_per_mtok,
    outputUsdPerMTok: r.output_usd_per_mtok,
    ...(r.budget_usd_per_day !== null && { budgetUsdPerDay: r.budget_usd_per_day }),
    enabled: r.enabled,
    retired: r.retired,
    updatedAt: r.updated_at.toISOString(),
    updatedBy: r.updated_by,
  };
}

/** Every model, in the order they were added. */
export async function readRoster(db: Pick<Db, 'query'>): Promise<RosterModel[]> {
  const { rows } = await db.query<ModelRow>(`SELECT ${MODEL_COLUMNS} FROM models ORDER BY ordinal`);
  return rows.map(modelOfRow);
}

/** Inserts a model (as seeded, or as an operator added it); false when its id is taken. */
export async function insertModel(db: Pick<DbClient, 'query'>, m: ModelSpec & { enabled: boolean }, by: string | null): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO models (id, label, provider, model, family, base_url, api_key_env, weight, input_usd_per_mtok, output_usd_per_mtok,
       budget_usd_per_day, enabled, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING`,
    [
      m.id,
      m.label,
      m.provider,
      m.model,
      m.family,
      m.baseURL ?? null,
      m.apiKeyEnv ?? null,
      m.weight,
      m.inputUsdPerMTok ?? 0,
      m.outputUsdPerMTok ?? 0,
      m.budgetUsdPerDay ?? null,
      m.enabled,
      by,
    ],
  );
  return rowCount === 1;
}
