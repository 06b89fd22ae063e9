import type { HistoryEntry as Entry, Side } from '@duet/contracts';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerDiffText, DiffToggle } from '../../components/AnswerDiff/AnswerDiff.tsx';
import type { AnswerDiff } from '../../components/AnswerDiff/answer-diff.ts';
import { diffAnswers } from '../../components/AnswerDiff/answer-diff.ts';
import { LazyMarkdown as Markdown } from '../../components/Markdown/LazyMarkdown.tsx';
import { CATEGORY_LABELS, LANGUAGE_LABELS } from '../../i18n/input-labels.ts';
import { FollowUps } from './FollowUps.tsx';

interface HistoryEntryProps {
  entry: Entry;
  dateFormat: Intl.DateTimeFormat;
}

/**
 * One past battle: when, what was asked, who won, and both answers (folded until opened), which
 * a toggle opens side by side in difference mode.
 */
export function HistoryEntry({ entry, dateFormat }: HistoryEntryProps) {
  const { t } = useTranslation('battle');
  const { question, sides, winner } = entry;
  const [open, setOpen] = useState<Record<Side, boolean>>({ a: false, b: false });
  const [diffOn, setDiffOn] = useState(false);
  const diffable = sides.a.text !== '' && sides.b.text !== '';
  const diff = useMemo(() => (diffOn ? diffAnswers(sides.a.text, sides.b.text) : null), [diffOn, sides.a.text, sides.b.text]);
  const inputs = question.inputs;
  const when = new Date(entry.votedAt || entry.createdAt);
  const verdict =
    winner === 'a'
      ? t('history.winnerA', { label: sides.a.label })
      : winner === 'b'
        ? t('history.winnerB', { label: sides.b.label })
        : winner === 'tie'
          ? t('history.winnerTie')
          : t('history.winnerBothBad');
  const details: Array<[string, string]> = [];
  if (inputs.poemTitle) details.push([t('history.field.poemTitle'), inputs.poemTitle]);
  if (inputs.genre) details.push([t('history.field.genre'), inputs.genre]);
  if (inputs.category) {
    details.push([t('history.field.category'), t(CATEGORY_LABELS[inputs.category])]);
  }
  if (inputs.language) {
    details.push([t('history.field.language'), t(LANGUAGE_LABELS[inputs.language])]);
  }

  return (
    <article className="hentry" data-testid="history-entry" data-winner={winner} aria-labelledby={`h-${entry.id}`}>
      <header className="hentry__head">
        <time className="hentry__date" dateTime={when.toISOString()}>
          {dateFormat.format(when)}
        </time>
        <span className={`hentry__verdict hentry__verdict--${winner}`} data-testid="history-winner">
          <span className="visually-hidden">{t('history.winnerLabel')}: </span>
          {verdict}
        </span>
      </header>

      <div className="hentry__question">
        <h3 className="visually-hidden" id={`h-${entry.id}`}>
          {t('history.question')} · {dateFormat.format(when)}
        </h3>
        {question.imageUrl && (
          <a
            className="hentry__thumb"
            href={question.imageUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('history.openImage')}
          >
            <img src={question.imageUrl} alt={t('history.image')} loading="lazy" decoding="async" width="96" height="96" />
          </a>
        )}
        <div className="hentry__qbody">
          {details.length > 0 && (
            <dl className="hentry__fields">
              {details.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          )}
          {inputs.keywords && inputs.keywords.length > 0 && (
            <ul className="hentry__keywords" aria-label={t('history.field.keywords')}>
              {inputs.keywords.map((k, i) => (
                <li key={i}>#{k}</li>
              ))}
            </ul>
          )}
          {question.text ? (
            <p className="hentry__text">{question.text}</p>
          ) : (
            !details.length && !inputs.keywords?.length && <p className="hentry__text hentry__text--none">{t('history.noText')}</p>
          )}
        </div>
      </div>

      {diffable && (
        <div className="hentry__diff">
          <DiffToggle
            on={diffOn}
            onChange={(on) => {
              setDiffOn(on);
              if (on) setOpen({ a: true, b: true });
            }}
            testId="history-diff-toggle"
          />
        </div>
      )}

      <div className={`hentry__answers${diff ? ' hentry__answers--diff' : ''}`}>
        {(['a', 'b'] as const).map((side) => (
          <AnswerToggle
            key={side}
            entry={entry}
            side={side}
            won={winner === side}
            open={open[side]}
            onToggle={() => setOpen((o) => ({ ...o, [side]: !o[side] }))}
            diff={diff}
          />
        ))}
      </div>
      <FollowUps entry={entry} />
    </article>
  );
}

interface AnswerToggleProps {
  entry: Entry;
  side: Side;
  won: boolean;
  open: boolean;
  onToggle: () => void;
  /** Both answers compared: the open answer shows in difference mode instead of as Markdown. */
  diff: AnswerDiff | null;
}

function AnswerToggle({ entry, side, won, open, onToggle, diff }: AnswerToggleProps) {
  const { t, i18n } = useTranslation('battle');
  const panelId = useId();
  const answer = entry.sides[side];
  const nf = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const label = answer.label;
  const tokens = answer.stats.outputTokens;
  return (
    <div className={`hanswer hanswer--${side}${open ? ' hanswer--open' : ''}${won ? ' hanswer--won' : ''}`}>
      <button
        type="button"
        className="hanswer__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onToggle}
        data-testid={`history-toggle-${side}`}
      >
        <span className="hanswer__badge" aria-hidden="true">
          {side.toUpperCase()}
        </span>
        <span className="hanswer__text">
          <span className="hanswer__label">
            {open
              ? t('history.hideAnswer', { side: side.toUpperCase(), label })
              : t('history.showAnswer', { side: side.toUpperCase(), label })}
          </span>
          <span className="hanswer__meta">
            {t('history.answerStats', {
              tokens: tokens === null ? t('side.notAvailable') : nf.format(tokens),
              duration: nf.format(answer.stats.durationMs / 1000),
            })}
          </span>
        </span>
        {won && <span className="hanswer__won">{t('side.winner')}</span>}
        <svg className="hanswer__chev" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path fill="currentColor" d="M7.41 8.59 12 13.17l4.59-4.58L18 10l-6 6-6-6z" />
        </svg>
      </button>
      <div id={panelId} className="hanswer__panel" hidden={!open} data-testid={`history-answer-${side}`}>
        {open &&
          (diff ? (
            <AnswerDiffText diff={diff} side={side} />
          ) : answer.text ? (
            <Markdown>{answer.text}</Markdown>
          ) : (
            <p className="hanswer__empty">{t('side.emptyAnswer')}</p>
          ))}
      </div>
    </div>
  );
}
