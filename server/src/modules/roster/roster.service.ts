import type { ModelCreate, ModelPatch, RosterModel, RosterReport } from '@duet/contracts';
import type { RosterStore } from '@duet/platform/roster-store';
import { MODEL_COLUMNS, insertModel, modelOfRow, readRoster } from '@duet/platform/roster-repo';
import type { ModelRow } from '@duet/platform/roster-repo';
import { whyNotRunnable } from '@duet/platform/roster-settings';
import { withTransaction } from '../../infra/db.ts';
import type { Db, DbClient } from '../../infra/db.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';

export type RosterService = ReturnType<typeof createRosterService>;

/** How often, and how many times, an announcement Redis refused is tried again. */
const ANNOUNCE_RETRY_MS = 2_000;
const ANNOUNCE_TRIES = 300;

/** What an audit entry keeps of a model: everything but when it last changed. */
const auditable = ({ updatedAt: _at, updatedBy: _by, ...m }: RosterModel) => m;

/**
 * Operators' changes to the live roster: add a model, enable or disable it, re-weight, re-price,
 * give it a budget, retire it for good. Each change is one transaction with its audit entry, then
 * announced to every process (`RosterStore.announce`). A model that cannot run here cannot be
 * enabled; a change that would leave fewer than two models to draw from needs `force`.
 */
export function createRosterService(deps: {
  db: Db;
  store: Pick<RosterStore, 'announce' | 'refresh'>;
  keyIsSet: (envName: string) => boolean;
  /** Clears an operator's budget override of a model (`PUT /api/admin/budgets`) when its own budget is set here. */
  clearBudgetOverride: (modelId: string) => Promise<void>;
}) {
  const runnable = (m: RosterModel) => {
    const reason = whyNotRunnable(m, deps.keyIsSet);
    return { ok: reason === null, reason };
  };

  /**
   * Announces a committed change. Redis not answering, it is tried again in the background until it
   * does: processes that could reach Redis meanwhile have no other way to hear of the change.
   */
  const announce = async () => {
    await deps.store.refresh().catch(() => undefined);
    if (await deps.store.announce().then(() => true, () => false)) return;
    let tries = 0;
    const retry = setInterval(() => {
      tries += 1;
      deps.store.announce().then(
        () => clearInterval(retry),
        () => tries >= ANNOUNCE_TRIES && clearInterval(retry),
      );
    }, ANNOUNCE_RETRY_MS);
    retry.unref();
  };

  const drawableAfter = (models: RosterModel[]) => models.filter((m) => m.enabled && !m.retired).length;

  return {
    async list(): Promise<RosterReport> {
      const models = await readRoster(deps.db);
      return { models: models.map((m) => ({ ...m, runnable: runnable(m) })) };
    },

    async create(input: ModelCreate, actor: string): Promise<RosterModel> {
      if (input.enabled) {
        const reason = whyNotRunnable(input, deps.keyIsSet);
        if (reason) throw new AppError(400, 'validation_failed', `This model cannot be enabled: ${reason}.`);
      }
      const created = await withTransaction(deps.db, async (client) => {
        if (!(await insertModel(client, input, actor))) return null;
        const model = await lockedModel(client, input.id);
        await recordAudit(client, { actor, action: 'model.create', target: input.id, before: null, after: auditable(model) });
        return model;
      });
      if (!created) throw new AppError(409, 'conflict', `A model called ${input.id} exists already.`);
      await announce();
      return created;
    },

    async update(id: string, patch: ModelPatch, actor: string): Promise<RosterModel> {
      const updated = await withTransaction(deps.db, async (client) => {
        // Every change to the roster in turn: two operators disabling the last two models at once
        // must not both see one left.
        await client.query("SELECT pg_advisory_xact_lock(hashtext('duet:roster-change'))");
        const before = await lockedModel(client, id);
        if (before.retired) throw new AppError(409, 'conflict', `${id} is retired: it is never drawn again and cannot be changed.`);
        const next: RosterModel = {
          ...before,
          ...(patch.label !== undefined && { label: patch.label }),
          ...(patch.weight !== undefined && { weight: patch.weight }),
          ...(patch.enabled !== undefined && { enabled: patch.enabled }),
          ...(patch.inputUsdPerMTok !== undefined && { inputUsdPerMTok: patch.inputUsdPerMTok }),
          ...(patch.outputUsdPerMTok !== undefined && { outputUsdPerMTok: patch.outputUsdPerMTok }),
        };
        if (patch.budgetUsdPerDay === null) delete next.budgetUsdPerDay;
        else if (patch.budgetUsdPerDay !== undefined) next.budgetUsdPerDay = patch.budgetUsdPerDay;
        if (patch.retired) {
          next.retired = true;
          next.enabled = false;
        }
        if (next.enabled && !before.enabled) {
          const reason = whyNotRunnable(next, deps.keyIsSet);
          if (reason) throw new AppError(400, 'validation_failed', `${id} cannot be enabled: ${reason}.`);
        }
        const others = (await readRoster(client)).filter((m) => m.id !== id);
        const left = drawableAfter([...others, next]);
        if (left < 2 && drawableAfter([...others, before]) > left && !patch.force) {
          throw new AppError(
            409,
            'confirmation_required',
            `This would leave ${left} model${left === 1 ? '' : 's'} to draw from: new battles would be refused. Send "force": true to do it all the same.`,
          );
        }
        await client.query(
          `UPDATE models SET label = $2, weight = $3, enabled = $4, retired = $5, input_usd_per_mtok = $6, output_usd_per_mtok = $7,
             budget_usd_per_day = $8, updated_at = now(), updated_by = $9 WHERE id = $1`,
          [id, next.label, next.weight, next.enabled, next.retired, next.inputUsdPerMTok ?? 0, next.outputUsdPerMTok ?? 0, next.budgetUsdPerDay ?? null, actor],
        );
        const after = await lockedModel(client, id);
        await recordAudit(client, { actor, action: patch.retired ? 'model.retire' : 'model.update', target: id, before: auditable(before), after: auditable(after) });
        return after;
      });
      // The model's own budget was just set: an earlier override must not hide it.
      if (patch.budgetUsdPerDay !== undefined) await deps.clearBudgetOverride(id);
      await announce();
      return updated;
    },
  };
}

/** A model's row, locked for the transaction's change; 404 when there is none. */
async function lockedModel(client: DbClient, id: string): Promise<RosterModel> {
  const { rows } = await client.query<ModelRow>(`SELECT ${MODEL_COLUMNS} FROM models WHERE id = $1 FOR UPDATE`, [id]);
  const row = rows[0];
  if (!row) throw new AppError(404, 'not_found', `No model in the roster is called ${id}.`);
  return modelOfRow(row);
}
