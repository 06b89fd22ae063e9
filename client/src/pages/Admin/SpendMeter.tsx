import { useTranslation } from 'react-i18next';

interface SpendMeterProps {
  label: string;
  settled: number;
  reserved: number;
  /** 0: no budget. */
  budget: number;
  usd: (value: number) => string;
}

/** Spend against a budget: the figures in words, and a bar (settled, then reserved) for the eye. */
export function SpendMeter({ label, settled, reserved, budget, usd }: SpendMeterProps) {
  const { t } = useTranslation('admin');
  const pct = (v: number) => (budget > 0 ? Math.min(100, (v / budget) * 100) : 0);
  const settledPct = pct(settled);
  const reservedPct = Math.min(100 - settledPct, pct(reserved));
  const over = budget > 0 && settled + reserved >= budget;
  return (
    <div className={`adm-meter${over ? ' adm-meter--full' : ''}`}>
      <div className="adm-meter__head">
        <span className="adm-strong">{label}</span>
        <span className="adm-meter__figures">
          {t('spend.settledOf', { settled: usd(settled), budget: budget > 0 ? usd(budget) : t('spend.noBudget') })}
          {reserved > 0 && <span className="adm-muted"> · {t('spend.reservedAmount', { reserved: usd(reserved) })}</span>}
        </span>
      </div>
      {budget > 0 && (
        <div className="adm-meter__bar" aria-hidden="true">
          <span className="adm-meter__settled" style={{ width: `${settledPct}%` }} />
          <span className="adm-meter__reserved" style={{ width: `${reservedPct}%` }} />
        </div>
      )}
    </div>
  );
}
