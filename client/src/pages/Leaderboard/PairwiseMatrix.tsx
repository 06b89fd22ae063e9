import type { Leaderboard } from '@duet/contracts';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

interface PairwiseMatrixProps {
  board: Leaderboard;
  /** What the board covers, for the captions. */
  scope: string;
}

/**
 * Two pictures of the pairs as real tables (read cell by cell by screen readers, and printable):
 * the share of its battles against each opponent that the row's model won outright, shaded as a
 * heat map, and how many battles each pair had. Models in the board's order.
 */
export function PairwiseMatrix({ board, scope }: PairwiseMatrixProps) {
  const { t, i18n } = useTranslation('leaderboard');
  const winId = useId();
  const countId = useId();
  const pct = useMemo(() => new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }), [i18n.language]);
  const num = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const models = board.models;
  const pair = useMemo(() => {
    const byKey = new Map(board.pairs.map((p) => [`${p.a}\u0000${p.b}`, p]));
    return (row: string, col: string) => {
      const p = byKey.get(row < col ? `${row}\u0000${col}` : `${col}\u0000${row}`);
      if (!p || p.battles === 0) return null;
      return { battles: p.battles, wins: row < col ? p.winsA : p.winsB };
    };
  }, [board.pairs]);
  if (models.length < 2 || board.pairs.length === 0) return null;

  const head = (
    <thead>
      <tr>
        <td className="lb-matrix__corner" />
        {models.map((m) => (
          <th key={m.model} scope="col" className="lb-matrix__col">
            <span>{m.label}</span>
          </th>
        ))}
      </tr>
    </thead>
  );

  return (
    <section className="lb-card lb-pairs" aria-labelledby={winId} data-testid="leaderboard-heatmap">
      <h2 id={winId} className="lb-h2">
        {t('pairs.heading')}
      </h2>
      <p className="lb-pairs__lead">{t('pairs.lead')}</p>
      <div className="lb-scroll" role="region" aria-labelledby={winId} tabIndex={0}>
        <table className="lb-matrix">
          <caption className="visually-hidden">{t('pairs.winCaption', { scope })}</caption>
          {head}
          <tbody>
            {models.map((r) => (
              <tr key={r.model}>
                <th scope="row" className="lb-matrix__row">
                  {r.label}
                </th>
                {models.map((c) => {
                  const p = r.model === c.model ? null : pair(r.model, c.model);
                  if (!p) return <td key={c.model} className="lb-matrix__cell lb-matrix__cell--none">{r.model === c.model ? '' : t('pairs.none')}</td>;
                  const share = p.wins / p.battles;
                  return (
                    <td
                      key={c.model}
                      className="lb-matrix__cell"
                      style={{ '--share': share } as React.CSSProperties}
                      data-share={share.toFixed(3)}
                      title={t('pairs.cell', { row: r.label, col: c.label, wins: num.format(p.wins), battles: num.format(p.battles) })}
                    >
                      {pct.format(share)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="lb-legend" aria-hidden="true">
        <span>{pct.format(0)}</span>
        <span className="lb-legend__ramp" />
        <span>{pct.format(1)}</span>
      </p>

      <h3 id={countId} className="lb-pairs__sub">
        {t('pairs.countHeading')}
      </h3>
      <div className="lb-scroll" role="region" aria-labelledby={countId} tabIndex={0}>
        <table className="lb-matrix lb-matrix--count" data-testid="leaderboard-pair-counts">
          <caption className="visually-hidden">{t('pairs.countCaption', { scope })}</caption>
          {head}
          <tbody>
            {models.map((r) => (
              <tr key={r.model}>
                <th scope="row" className="lb-matrix__row">
                  {r.label}
                </th>
                {models.map((c) => {
                  const p = r.model === c.model ? null : pair(r.model, c.model);
                  return (
                    <td key={c.model} className="lb-matrix__cell lb-matrix__cell--count">
                      {r.model === c.model ? '' : p ? num.format(p.battles) : t('pairs.none')}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
