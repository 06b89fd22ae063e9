import type { Leaderboard, LeaderboardHistory } from '@duet/contracts';
import { Fragment, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReasonCount } from './model-reasons.ts';
import { reasonLines } from './model-reasons.ts';

interface ModelReasonsProps {
  board: Pick<Leaderboard, 'models' | 'reasons'>;
  /** The board's history: names for models the board does not list yet. */
  history: LeaderboardHistory | undefined;
  /** What the board covers, for the heading. */
  scope: string;
  /** The previous board's, shown while the chosen one loads: dimmed like the table. */
  stale: boolean;
}

/**
 * What voters said when they gave reasons: per model, the reasons it was picked for and passed over
 * for most, with how often. A list, not a table column, so it reads on a phone without scrolling.
 */
export function ModelReasons({ board, history, scope, stale }: ModelReasonsProps) {
  const { t } = useTranslation('leaderboard');
  const headingId = useId();
  const lines = useMemo(() => reasonLines(board, history), [board, history]);
  if (lines.length === 0) return null;

  return (
    <section
      className={`lb-card lb-reasons${stale ? ' lb-board--stale' : ''}`}
      aria-labelledby={headingId}
      aria-busy={stale}
      data-testid="leaderboard-reasons"
    >
      <h2 id={headingId} className="lb-h2">
        {t('reasons.heading', { scope })}
      </h2>
      <p className="lb-pairs__lead">{t('reasons.lead')}</p>
      <ul className="lb-reasons__list">
        {lines.map((m) => (
          <li key={m.model} className={`lb-reasons__model lb-row lb-row--${m.family ?? 'other'}`} data-testid="leaderboard-reasons-model" data-model={m.model}>
            <h3 className="lb-reasons__name">
              {m.family && <span className="lb-model__dot" aria-hidden="true" />}
              {m.label}
            </h3>
            {m.picked.length > 0 && <ReasonLine kind="picked" counts={m.picked} />}
            {m.passed.length > 0 && <ReasonLine kind="passed" counts={m.passed} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Picked for: accurate 12 · clear 7". */
function ReasonLine({ kind, counts }: { kind: 'picked' | 'passed'; counts: ReasonCount<string>[] }) {
  const { t, i18n } = useTranslation('leaderboard');
  const num = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  return (
    <p className={`lb-reasons__line lb-reasons__line--${kind}`} data-kind={kind}>
      <span className="lb-reasons__kind">{t(`reasons.${kind}`)}</span>{' '}
      {counts.map((c, i) => (
        <Fragment key={c.reason}>
          {i > 0 && (
            <>
              <span className="lb-reasons__sep" aria-hidden="true">
                {' · '}
              </span>
              <span className="visually-hidden">, </span>
            </>
          )}
          <span className="lb-reasons__reason" data-reason={c.reason} data-count={c.count}>
            {t('reasons.count', { reason: t(`battle:reasons.label.${c.reason}`), n: num.format(c.count) })}
          </span>
        </Fragment>
      ))}
    </p>
  );
}
