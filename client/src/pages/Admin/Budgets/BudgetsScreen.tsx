import { useTranslation } from 'react-i18next';
import { useRoster, useSpend } from '../../../api/admin-queries.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { formatTime, formatUsd } from '../format.ts';
import { ErrorNotice } from '../Notice.tsx';
import { SpendMeter } from '../SpendMeter.tsx';
import { BudgetsForm } from './BudgetsForm.tsx';
import { QuotasPanel } from './QuotasPanel.tsx';
import { AdminScreen } from '../AdminScreen.tsx';

/** `/admin/budgets`: today's spend and questions, and the budgets and quotas, changed live. */
export default function BudgetsScreen() {
  const { t, i18n } = useTranslation('admin');
  const spend = useSpend();
  const roster = useRoster();
  useDocumentTitle(t('budgets.documentTitle'));
  const usd = (v: number) => formatUsd(v, i18n.language);
  const report = spend.data;
  const models = (roster.data?.models ?? []).filter((m) => !m.retired);

  return (
    <AdminScreen
      name="budgets"
      title={t('budgets.title')}
      aside={report && <p className="adm-muted">{t('spend.day', { day: report.day, timeZone: report.timeZone })}</p>}
    >
      <ErrorNotice error={spend.error ?? roster.error} />
      <div className="adm-columns">
        {report && (
          <section className="adm-card adm-panel" aria-labelledby="adm-spend-today">
            <h2 id="adm-spend-today" className="adm-h2">
              {t('budgets.today')}
            </h2>
            <ul className="adm-meters" data-testid="admin-spend-today">
              <li data-model="*">
                <SpendMeter
                  label={t('spend.overall')}
                  settled={report.today.settled['*'] ?? 0}
                  reserved={report.today.reserved['*'] ?? 0}
                  budget={report.budgets.overallUsdPerDay}
                  usd={usd}
                />
              </li>
              {models.map((m) => (
                <li key={m.id} data-model={m.id}>
                  <SpendMeter
                    label={m.label}
                    settled={report.today.settled[m.id] ?? 0}
                    reserved={report.today.reserved[m.id] ?? 0}
                    budget={report.budgets.models[m.id] ?? 0}
                    usd={usd}
                  />
                </li>
              ))}
            </ul>
            <p className="adm-muted adm-small">
              {t('budgets.hour', { start: formatTime(report.hour.start, i18n.language), usd: usd(report.hour.settled['*'] ?? 0) })}
            </p>
          </section>
        )}
        <QuotasPanel />
      </div>
      {report && roster.data && <BudgetsForm budgets={report.budgets} models={models} />}
    </AdminScreen>
  );
}
