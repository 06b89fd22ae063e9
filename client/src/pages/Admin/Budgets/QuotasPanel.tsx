import type { QuotasChange } from '@duet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, adminWrites, useQuotas } from '../../../api/admin-queries.ts';
import { formatNumber } from '../format.ts';
import { DoneNotice, ErrorNotice } from '../Notice.tsx';

const KINDS = ['anonPerDay', 'userPerDay'] as const;
type Kind = (typeof KINDS)[number];

const wholeNumber = (s: string): number | null => (/^\d{1,7}$/.test(s.trim()) && Number(s) <= 1_000_000 ? Number(s) : null);

/** Today's questions asked and refused, and the daily quotas (0: none), changed live or sent back to their settings. */
export function QuotasPanel() {
  const { t, i18n } = useTranslation('admin');
  const queryClient = useQueryClient();
  const { data, error: readError } = useQuotas();
  const [text, setText] = useState<Record<Kind, string> | null>(null);
  const [seen, setSeen] = useState(data);
  if (seen !== data) {
    setSeen(data);
    setText(null);
  }
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const n = (v: number) => formatNumber(v, i18n.language);

  const shown = (k: Kind) => text?.[k] ?? String(data?.[k] ?? '');
  const send = async (change: QuotasChange, doneText: string) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      queryClient.setQueryData(adminKeys.quotas, await adminWrites.setQuotas(change));
      setDone(doneText);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const changed = KINDS.filter((k) => data && shown(k) !== String(data[k]));
  const valid = KINDS.every((k) => wholeNumber(shown(k)) !== null);
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (changed.length && valid) void send(Object.fromEntries(changed.map((k) => [k, wholeNumber(shown(k))])), t('quotas.saved'));
  };

  return (
    <section className="adm-card adm-panel" aria-labelledby="adm-quotas" data-testid="admin-quotas">
      <h2 id="adm-quotas" className="adm-h2">
        {t('quotas.title')}
      </h2>
      <ErrorNotice error={readError} />
      {data && (
        <>
          <dl className="adm-stats adm-stats--two">
            <div className="adm-stat">
              <dt>{t('quotas.asked')}</dt>
              <dd data-testid="admin-quotas-asked">{n(data.today.asked)}</dd>
            </div>
            <div className="adm-stat">
              <dt>{t('quotas.refused')}</dt>
              <dd data-testid="admin-quotas-refused">{n(data.today.refused)}</dd>
            </div>
          </dl>
          <form className="adm-form" onSubmit={save} data-testid="admin-quotas-form">
            <ul className="adm-rows">
              {KINDS.map((k) => (
                <li key={k} className="adm-row" data-quota={k}>
                  <label className="adm-field adm-field--inline">
                    <span className="adm-field__label">{t(`quotas.${k}`)}</span>
                    <input
                      type="number"
                      min={0}
                      max={1_000_000}
                      step={1}
                      inputMode="numeric"
                      value={shown(k)}
                      onChange={(e) => setText({ anonPerDay: shown('anonPerDay'), userPerDay: shown('userPerDay'), [k]: e.target.value })}
                      aria-invalid={wholeNumber(shown(k)) === null || undefined}
                      aria-describedby={`adm-quota-${k}-setting`}
                      disabled={busy}
                      data-field={k}
                    />
                  </label>
                  <span id={`adm-quota-${k}-setting`} className="adm-muted adm-small">
                    {t('quotas.setting', { value: n(data.settings[k]) })}
                  </span>
                  <button type="button" className="btn btn--sm" disabled={busy} onClick={() => void send({ [k]: null }, t('quotas.backDone'))}>
                    {t('budgets.backToSetting')}
                  </button>
                </li>
              ))}
            </ul>
            <p className="adm-muted adm-small">{t('quotas.lead')}</p>
            <ErrorNotice error={error} />
            <DoneNotice text={done} testId="admin-quotas-done" />
            <div className="adm-actions">
              <button type="submit" className="btn btn--primary" disabled={busy || changed.length === 0 || !valid} data-testid="admin-quotas-save">
                {t('quotas.save')}
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}
