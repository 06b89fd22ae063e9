import type { FollowUpEntry, HistoryEntry, Side } from '@duet/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyMarkdown as Markdown } from '../../components/Markdown/LazyMarkdown.tsx';
import './FollowUps.css';

/**
 * A past battle's follow-up turns, in order: each question as the visitor asked it, then both
 * answers (folded until opened). Nothing for a battle of one question.
 */
export function FollowUps({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('battle');
  const followUps = entry.followUps ?? [];
  if (followUps.length === 0) return null;
  return (
    <ol className="hfollow" aria-label={t('history.followUps', { count: followUps.length })} data-testid="history-follow-ups">
      {followUps.map((f) => (
        <li key={f.turn} className="hfollow__turn" data-testid={`history-turn-${f.turn}`}>
          <h4 className="hfollow__heading">{t('turns.heading', { number: f.turn })}</h4>
          <div className="hfollow__ask">
            <p className="hfollow__text">{f.text}</p>
            {f.imageUrl && <img className="hfollow__img" src={f.imageUrl} alt={t('turns.image')} loading="lazy" decoding="async" />}
          </div>
          <div className="hentry__answers">
            {(['a', 'b'] as const).map((side) => (
              <FollowUpAnswer key={side} side={side} label={entry.sides[side].label} answer={f.sides[side]} won={entry.winner === side} />
            ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

interface FollowUpAnswerProps {
  side: Side;
  label: string;
  answer: FollowUpEntry['sides'][Side];
  won: boolean;
}

/** One model's answer to a follow-up: a native disclosure, its text drawn only once opened. */
function FollowUpAnswer({ side, label, answer, won }: FollowUpAnswerProps) {
  const { t, i18n } = useTranslation('battle');
  const [open, setOpen] = useState(false);
  const nf = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const { outputTokens, durationMs } = answer.stats;
  const figures = t('history.answerStats', { tokens: outputTokens === null ? t('side.notAvailable') : nf.format(outputTokens), duration: nf.format(durationMs / 1000) });
  const names = { side: side.toUpperCase(), label };
  return (
    <details
      className={`hanswer hanswer--${side}${open ? ' hanswer--open' : ''}${won ? ' hanswer--won' : ''}`}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid={`history-turn-answer-${side}`}
    >
      {/* The chevron is the summary's ::after (FollowUps.css). */}
      <summary className="hanswer__toggle">
        <span className="hanswer__badge" aria-hidden="true">
          {side.toUpperCase()}
        </span>
        <span className="hanswer__text">
          <span className="hanswer__label">{open ? t('history.hideAnswer', names) : t('history.showAnswer', names)}</span>
          <span className="hanswer__meta">{figures}</span>
        </span>
      </summary>
      <div className="hanswer__panel">{open && (answer.text ? <Markdown>{answer.text}</Markdown> : <p className="hanswer__empty">{t('side.emptyAnswer')}</p>)}</div>
    </details>
  );
}
