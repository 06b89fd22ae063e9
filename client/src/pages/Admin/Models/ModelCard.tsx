import type { ModelPatch, RosterReport } from '@duet/contracts';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfirmRequest } from '../ConfirmDialog.tsx';
import { formatDateTime, formatUsd } from '../format.ts';
import { DoneNotice, ErrorNotice } from '../Notice.tsx';
import { fieldsOf, patchOf } from './model-fields.ts';
import type { ModelFields } from './model-fields.ts';

type Model = RosterReport['models'][number];

interface ModelCardProps {
  model: Model;
  change: (id: string, patch: ModelPatch) => Promise<boolean>;
  confirm: (request: ConfirmRequest) => Promise<boolean>;
}

/** One model: its figures editable in place, its switch, its retirement, its last change. */
export function ModelCard({ model, change, confirm }: ModelCardProps) {
  const { t, i18n } = useTranslation('admin');
  const titleId = useId();
  const [fields, setFields] = useState<ModelFields>(() => fieldsOf(model));
  // A saved change (here or by another operator) starts the fields again from what the API kept.
  const [seen, setSeen] = useState(model.updatedAt);
  if (seen !== model.updatedAt) {
    setSeen(model.updatedAt);
    setFields(fieldsOf(model));
  }
  const [busy, setBusy] = useState(false);
  // The switch shows the operator's choice while it is sent (and asked about); the API's answer then decides.
  const [switching, setSwitching] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const result = patchOf(model, fields);

  const run = async (patch: ModelPatch, doneText: string) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      if (await change(model.id, patch)) setDone(doneText);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (result.patch) void run(result.patch, t('models.saved'));
  };

  const retire = async () => {
    const ok = await confirm({ title: t('models.retire.title', { label: model.label }), message: t('models.retire.message'), confirmLabel: t('models.retire.confirm') });
    if (ok) await run({ retired: true }, t('models.retired'));
  };

  const set = (key: keyof ModelFields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const field = (key: keyof ModelFields, label: string, opts: { step?: string; hint?: string } = {}) => (
    <label className="adm-field">
      <span className="adm-field__label">{label}</span>
      <input
        type={key === 'label' ? 'text' : 'number'}
        inputMode={key === 'label' ? undefined : 'decimal'}
        min={key === 'label' ? undefined : 0}
        step={opts.step}
        value={fields[key]}
        onChange={set(key)}
        disabled={model.retired || busy}
        aria-invalid={result.invalid.includes(key) || undefined}
        placeholder={opts.hint}
        data-field={key}
      />
    </label>
  );

  const state = model.retired ? 'retired' : model.enabled ? 'enabled' : 'disabled';
  return (
    <article className={`adm-card adm-model adm-model--${state}`} aria-labelledby={titleId} data-testid="admin-model" data-model={model.id} data-state={state}>
      <header className="adm-model__head">
        <div className="adm-model__name">
          <h2 id={titleId} className="adm-h2">
            {model.label}
          </h2>
          <p className="adm-id">
            {model.id} · {model.provider} · {model.model} · {t(`family.${model.family}`)}
          </p>
        </div>
        {model.retired ? (
          <span className="adm-badge adm-badge--retired">{t('models.state.retired')}</span>
        ) : (
          <label className="adm-switch">
            <input
              type="checkbox"
              role="switch"
              checked={switching ?? model.enabled}
              disabled={busy}
              onChange={(e) => {
                const enabled = e.target.checked;
                setSwitching(enabled);
                void run({ enabled }, enabled ? t('models.enabledNow') : t('models.disabledNow')).finally(() => setSwitching(null));
              }}
              data-testid="admin-model-enabled"
            />
            <span className="adm-switch__track" aria-hidden="true" />
            <span>{t('models.drawn')}</span>
          </label>
        )}
      </header>
      {!model.runnable.ok && (
        <p className="adm-alert adm-alert--warn" data-testid="admin-model-unrunnable">
          {t('models.cannotRun', { reason: model.runnable.reason ?? '' })}
        </p>
      )}
      <form className="adm-model__form" onSubmit={save}>
        <div className="adm-grid">
          {field('label', t('models.fields.label'))}
          {field('weight', t('models.fields.weight'), { step: 'any' })}
          {field('inputUsdPerMTok', t('models.fields.inputPrice'), { step: 'any' })}
          {field('outputUsdPerMTok', t('models.fields.outputPrice'), { step: 'any' })}
          {field('budgetUsdPerDay', t('models.fields.budget'), { step: 'any', hint: t('models.fields.noBudget') })}
        </div>
        {!model.retired && (
          <div className="adm-actions">
            <button type="submit" className="btn btn--primary btn--sm" disabled={busy || !result.patch} data-testid="admin-model-save">
              {t('models.save')}
            </button>
            <button type="button" className="btn btn--sm" disabled={busy || !result.dirty} onClick={() => setFields(fieldsOf(model))}>
              {t('models.undo')}
            </button>
            <button type="button" className="btn btn--sm adm-btn-danger adm-push" disabled={busy} onClick={() => void retire()} data-testid="admin-model-retire">
              {t('models.retire.button')}
            </button>
          </div>
        )}
      </form>
      <ErrorNotice error={error} testId="admin-model-error" />
      <DoneNotice text={done} />
      <p className="adm-muted adm-small" data-testid="admin-model-change">
        {model.updatedBy
          ? t('models.lastChange', { when: formatDateTime(model.updatedAt, i18n.language), who: model.updatedBy })
          : t('models.seeded', { when: formatDateTime(model.updatedAt, i18n.language) })}
        {model.budgetUsdPerDay !== undefined && <> · {t('models.ownBudget', { usd: formatUsd(model.budgetUsdPerDay, i18n.language) })}</>}
      </p>
    </article>
  );
}
