import type { AdminNow } from '@duet/contracts';
import { useTranslation } from 'react-i18next';
import { formatUsd } from '../format.ts';
import { SpendMeter } from '../SpendMeter.tsx';

/** Today's spend, settled and reserved, against the overall budget and each model's. */
export function NowSpend({ spend, models }: { spend: AdminNow['spend']; models: AdminNow['models'] }) {
  const { t, i18n } = useTranslation('admin');
  const usd = (v: number) => formatUsd(v, i18n.language);
  const rows = [
    { id: '*', label: t('spend.overall'), budget: spend.budgets.overallUsdPerDay },
    ...models.map((m) => ({ id: m.id, label: m.label, budget: spend.budgets.models[m.id] ?? 0 })),
  ];
  return (
    <section className="adm-card adm-panel" aria-labelledby="adm-now-spend">
      <h2 id="adm-now-spend" className="adm-h2">
        {t('now.spend.title')}
      </h2>
      <p className="adm-muted adm-small">{t('spend.day', { day: spend.day, timeZone: spend.timeZone })}</p>
      <ul className="adm-meters" data-testid="admin-now-spend">
        {rows.map((r) => (
          <li key={r.id} data-model={r.id}>
            <SpendMeter label={r.label} settled={spend.settled[r.id] ?? 0} reserved={spend.reserved[r.id] ?? 0} budget={r.budget} usd={usd} />
          </li>
        ))}
      </ul>
    </section>
  );
}
