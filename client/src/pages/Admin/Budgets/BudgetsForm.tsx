import type { BudgetsChange, RosterModel, SpendReport } from '@duet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, adminWrites } from '../../../api/admin-queries.ts';
import { FormCard } from '../FormCard.tsx';
import { parseAmount } from '../format.ts';
import { DoneNotice, ErrorNotice } from '../Notice.tsx';

type Budgets = SpendReport['budgets'];

const textOf = (b: Budgets): Record<string, string> => ({ '*': String(b.overallUsdPerDay), ...Object.fromEntries(Object.entries(b.models).map(([id, v]) => [id, String(v)])) });

/** The budgets in force (0: none), each changeable, or sent back to its setting. */
export function BudgetsForm({ budgets, models }: { budgets: Budgets; models: RosterModel[] }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [text, setText] = useState(() => textOf(budgets));
  const [seen, setSeen] = useState(budgets);
  if (seen !== budgets) {
    setSeen(budgets);
    setText(textOf(budgets));
  }
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  const rows = [{ id: '*', label: t('spend.overall') }, ...models.map((m) => ({ id: m.id, label: m.label }))];
  const current = textOf(budgets);
  const invalid = rows.filter((r) => {
    const v = parseAmount(text[r.id] ?? '');
    return v === null || Number.isNaN(v);
  });

  const send = async (change: BudgetsChange, doneText: string) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await adminWrites.setBudgets(change);
      setDone(doneText);
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.spend }), queryClient.invalidateQueries({ queryKey: adminKeys.now })]);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const changeOf = (values: Record<string, number | null>): BudgetsChange => {
    const { '*': overall, ...perModel } = values;
    return { ...(overall !== undefined && { overallUsdPerDay: overall }), ...(Object.keys(perModel).length > 0 && { models: perModel }) };
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    const changed = Object.fromEntries(rows.filter((r) => text[r.id] !== current[r.id]).map((r) => [r.id, parseAmount(text[r.id] ?? '') ?? 0]));
    if (Object.keys(changed).length) void send(changeOf(changed), t('budgets.saved'));
  };

  const dirty = rows.some((r) => text[r.id] !== current[r.id]);
  return (
    <FormCard
      titleId="adm-budgets-change"
      title={t('budgets.change')}
      lead={t('budgets.lead')}
      className="adm-panel"
      leadClassName="adm-muted adm-small"
      testId="admin-budgets-form"
      onSubmit={save}
      actions={
        <button type="submit" className="btn btn--primary" disabled={busy || !dirty || invalid.length > 0} data-testid="admin-budgets-save">
          {t('budgets.save')}
        </button>
      }
    >
      <ul className="adm-rows">
        {rows.map((r) => (
          <li key={r.id} className="adm-row" data-budget={r.id}>
            <label className="adm-field adm-field--inline">
              <span className="adm-field__label">{t('budgets.usdPerDay', { label: r.label })}</span>
              <input
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                value={text[r.id] ?? ''}
                onChange={(e) => setText((s) => ({ ...s, [r.id]: e.target.value }))}
                aria-invalid={invalid.some((i) => i.id === r.id) || undefined}
                disabled={busy}
              />
            </label>
            <button
              type="button"
              className="btn btn--sm"
              disabled={busy}
              onClick={() => void send(changeOf({ [r.id]: null }), t('budgets.backToSettingDone', { label: r.label }))}
              data-testid="admin-budget-reset"
            >
              {t('budgets.backToSetting')}
            </button>
          </li>
        ))}
      </ul>
      <ErrorNotice error={error} />
      <DoneNotice text={done} testId="admin-budgets-done" />
    </FormCard>
  );
}
