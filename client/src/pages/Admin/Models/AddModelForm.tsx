import type { ModelCreate } from '@duet/contracts';
import { FAMILIES, PROVIDERS } from '@duet/contracts/roster';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, adminWrites } from '../../../api/admin-queries.ts';
import { parseAmount } from '../format.ts';
import { DoneNotice, ErrorNotice } from '../Notice.tsx';

const EMPTY = {
  id: '',
  label: '',
  provider: 'openai' as ModelCreate['provider'],
  model: '',
  family: 'other' as ModelCreate['family'],
  weight: '1',
  baseURL: '',
  apiKeyEnv: '',
  inputUsdPerMTok: '0',
  outputUsdPerMTok: '0',
  budgetUsdPerDay: '',
};
type Draft = typeof EMPTY;

/** The body of `POST /api/admin/models` the draft asks for; the API checks the rest and says what is wrong. */
function createOf(d: Draft): ModelCreate {
  const num = (s: string) => parseAmount(s) ?? 0;
  const budget = parseAmount(d.budgetUsdPerDay);
  return {
    id: d.id.trim(),
    label: d.label.trim(),
    provider: d.provider,
    model: d.model.trim(),
    family: d.family,
    weight: num(d.weight),
    ...(d.baseURL.trim() && { baseURL: d.baseURL.trim() }),
    ...(d.apiKeyEnv.trim() && { apiKeyEnv: d.apiKeyEnv.trim() }),
    inputUsdPerMTok: num(d.inputUsdPerMTok),
    outputUsdPerMTok: num(d.outputUsdPerMTok),
    ...(budget !== null && { budgetUsdPerDay: budget }),
    // A new model waits, disabled, until an operator enables it.
    enabled: false,
  };
}

/** Adds a model to the roster, disabled. */
export function AddModelForm({ takenIds }: { takenIds: string[] }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const taken = takenIds.includes(draft.id.trim());

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const created = await adminWrites.createModel(createOf(draft));
      setDone(t('models.add.done', { id: created.id }));
      setDraft(EMPTY);
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.models });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const text = (key: keyof Draft, label: string, opts: { required?: boolean; type?: string; hint?: string } = {}) => (
    <label className="adm-field">
      <span className="adm-field__label">{label}</span>
      <input
        type={opts.type ?? 'text'}
        required={opts.required}
        min={opts.type === 'number' ? 0 : undefined}
        step={opts.type === 'number' ? 'any' : undefined}
        value={draft[key]}
        onChange={set(key)}
        placeholder={opts.hint}
        spellCheck={false}
        data-field={key}
      />
    </label>
  );

  return (
    <section className="adm-card adm-panel adm-add" aria-labelledby={`${formId}-title`} data-testid="admin-add-model">
      <div className="adm-add__head">
        <h2 id={`${formId}-title`} className="adm-h2">
          {t('models.add.title')}
        </h2>
        <button type="button" className="btn btn--sm" aria-expanded={open} aria-controls={formId} onClick={() => setOpen((o) => !o)} data-testid="admin-add-toggle">
          {open ? t('models.add.close') : t('models.add.open')}
        </button>
      </div>
      <DoneNotice text={done} testId="admin-add-done" />
      <form id={formId} className="adm-form" hidden={!open} onSubmit={(e) => void submit(e)}>
        <p className="adm-muted adm-small">{t('models.add.lead')}</p>
        <div className="adm-grid">
          {text('id', t('models.add.id'), { required: true, hint: 'openai:gpt-4o-mini' })}
          {text('label', t('models.fields.label'), { required: true })}
          <label className="adm-field">
            <span className="adm-field__label">{t('models.add.provider')}</span>
            <select value={draft.provider} onChange={set('provider')} data-field="provider">
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          {text('model', t('models.add.model'), { required: true, hint: 'gpt-4o-mini' })}
          <label className="adm-field">
            <span className="adm-field__label">{t('models.add.family')}</span>
            <select value={draft.family} onChange={set('family')} data-field="family">
              {FAMILIES.map((f) => (
                <option key={f} value={f}>
                  {t(`family.${f}`)}
                </option>
              ))}
            </select>
          </label>
          {text('weight', t('models.fields.weight'), { type: 'number', required: true })}
          {text('baseURL', t('models.add.baseURL'), { type: 'url', hint: 'https://…/v1' })}
          {text('apiKeyEnv', t('models.add.apiKeyEnv'), { hint: 'OPENAI_API_KEY' })}
          {text('inputUsdPerMTok', t('models.fields.inputPrice'), { type: 'number' })}
          {text('outputUsdPerMTok', t('models.fields.outputPrice'), { type: 'number' })}
          {text('budgetUsdPerDay', t('models.fields.budget'), { type: 'number', hint: t('models.fields.noBudget') })}
        </div>
        {taken && <p className="adm-alert adm-alert--warn">{t('models.add.taken')}</p>}
        <ErrorNotice error={error} testId="admin-add-error" />
        <div className="adm-actions">
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="admin-add-submit">
            {t('models.add.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
