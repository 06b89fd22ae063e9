import type { LeaderboardHistory } from '@duet/contracts';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 26 };
/** Distinct, colour-blind-friendly hues (Okabe–Ito), then repeated with dashes. */
const HUES = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];

/**
 * Each model's rating at the end of each day with its 95% interval as a band: a small SVG
 * (no chart library), with the same figures in a table for screen readers and keyboards.
 */
export function RatingHistory({ history, scope }: { history: LeaderboardHistory | undefined; scope: string }) {
  const { t, i18n } = useTranslation('leaderboard');
  const id = useId();
  const num = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }), [i18n.language]);
  const dayFmt = useMemo(() => new Intl.DateTimeFormat(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' }), [i18n.language]);
  const days = useMemo(() => history?.days ?? [], [history]);
  const series = useMemo(() => {
    const byModel = new Map<string, { label: string; points: { d: number; rating: number; ciLow: number; ciHigh: number }[] }>();
    days.forEach((day, d) => {
      for (const m of day.models) {
        const s = byModel.get(m.model) ?? { label: m.label, points: [] };
        s.points.push({ d, rating: m.rating, ciLow: m.ciLow, ciHigh: m.ciHigh });
        byModel.set(m.model, s);
      }
    });
    return [...byModel.entries()].slice(0, HUES.length * 2);
  }, [days]);

  const headingId = `${id}-h`;
  // While the series loads, the section already takes the room its short form needs, so nothing
  // under it moves when the series arrives (a visitor's first look at the page stays still).
  if (days.length < 2) {
    return (
      <section className="lb-card lb-history" aria-labelledby={headingId} aria-busy={!history} data-testid="leaderboard-history">
        <h2 id={headingId} className="lb-h2">
          {t('history.heading')}
        </h2>
        <p className="lb-pairs__lead">{history ? t('history.notYet') : t('loading')}</p>
      </section>
    );
  }

  const all = series.flatMap(([, s]) => s.points.flatMap((p) => [p.ciLow, p.ciHigh]));
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const span = hi - lo || 1;
  const x = (d: number) => PAD.left + ((W - PAD.left - PAD.right) * d) / Math.max(1, days.length - 1);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - lo) / span);
  const ticks = [lo, (lo + hi) / 2, hi];

  return (
    <section className="lb-card lb-history" aria-labelledby={headingId} data-testid="leaderboard-history">
      <h2 id={headingId} className="lb-h2">
        {t('history.heading')}
      </h2>
      <p className="lb-pairs__lead">{t('history.lead')}</p>
      <svg className="lb-history__chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={headingId} focusable="false">
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="lb-history__grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="lb-history__tick">
              {num.format(v)}
            </text>
          </g>
        ))}
        {[0, days.length - 1].map((d) => (
          <text key={d} x={x(d)} y={H - 6} textAnchor={d === 0 ? 'start' : 'end'} className="lb-history__tick">
            {dayFmt.format(new Date(`${days[d]!.day}T00:00:00Z`))}
          </text>
        ))}
        {series.map(([model, s], k) => {
          const hue = HUES[k % HUES.length];
          const band = [...s.points.map((p) => `${x(p.d)},${y(p.ciHigh)}`), ...[...s.points].reverse().map((p) => `${x(p.d)},${y(p.ciLow)}`)].join(' ');
          return (
            <g key={model}>
              <polygon points={band} fill={hue} opacity={0.12} />
              <polyline points={s.points.map((p) => `${x(p.d)},${y(p.rating)}`).join(' ')} fill="none" stroke={hue} strokeWidth={2} strokeDasharray={k >= HUES.length ? '5 3' : undefined} />
              {s.points.map((p) => (
                <circle key={p.d} cx={x(p.d)} cy={y(p.rating)} r={3.5} fill={hue} />
              ))}
            </g>
          );
        })}
      </svg>
      <ul className="lb-history__legend" aria-hidden="true">
        {series.map(([model, s], k) => (
          <li key={model}>
            <span className="lb-history__swatch" style={{ background: HUES[k % HUES.length] }} />
            {s.label}
          </li>
        ))}
      </ul>
      <table className="visually-hidden">
        <caption>{t('history.caption', { scope })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('history.day')}</th>
            {series.map(([model, s]) => (
              <th key={model} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day, d) => (
            <tr key={day.day}>
              <th scope="row">{dayFmt.format(new Date(`${day.day}T00:00:00Z`))}</th>
              {series.map(([model, s]) => {
                const p = s.points.find((q) => q.d === d);
                return (
                  <td key={model}>{p ? t('history.point', { rating: num.format(p.rating), low: num.format(p.ciLow), high: num.format(p.ciHigh) }) : '–'}</td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
