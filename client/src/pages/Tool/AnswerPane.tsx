import type { ShownStats, Side } from '@duet/contracts';
import type { SideView } from '@duet/contracts/live';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerDiffText } from '../../components/AnswerDiff/AnswerDiff.tsx';
import type { AnswerDiff } from '../../components/AnswerDiff/answer-diff.ts';
import { LazyMarkdown as Markdown } from '../../components/Markdown/LazyMarkdown.tsx';
import { sideErrorMessage, sideLabel } from './messages.ts';

interface AnswerPaneProps {
  side: Side;
  /** The side as the socket reports it; null until the first snapshot arrives. */
  view: SideView | null;
  /** The label from the creation answer, used until the snapshot arrives. */
  label: string;
  /** The model's name, once the vote revealed it (figures a blind battle kept back come with it). */
  revealed?: string;
  /** This side was picked as the better one. */
  picked?: boolean;
  /** The battle still waits in the queue: no model has been asked yet. */
  inLine?: boolean;
  /** Both answers compared: the text is shown in difference mode instead of as Markdown. */
  diff?: AnswerDiff | null;
  /** The rank of the pane's heading: 4 inside a turn of a conversation. */
  headingLevel?: 3 | 4;
}

/**
 * One model's answer: label, progress, the text streaming in as Markdown, then its figures (or,
 * in a blind battle before the vote, a note that they come after it).
 */
export function AnswerPane({ side, view, label, revealed, picked, inLine, diff, headingLevel = 3 }: AnswerPaneProps) {
  const { t } = useTranslation('battle');
  const state = view?.state ?? 'waiting';
  const name = sideLabel(t, view?.label ?? label);
  const progress = Math.round(view?.progress ?? 0);
  const cancelled = view?.stats?.finishReason === 'cancelled';
  const busy = state === 'waiting' || state === 'streaming' || state === 'saving';
  const statusText =
    state === 'waiting'
      ? inLine
        ? t('side.inLine')
        : t('side.thinking')
      : state === 'streaming'
        ? t('side.streaming')
        : state === 'saving'
          ? t('side.saving')
          : state === 'error'
            ? t('side.error')
            : cancelled
              ? t('side.stopped')
              : t('side.done');
  const stats = state === 'done' ? (view?.stats ?? null) : null;
  const titleId = `${useId()}-title`;
  const Heading = headingLevel === 4 ? 'h4' : 'h3';

  return (
    <article
      className={`pane pane--${side} pane--${state}${picked ? ' pane--picked' : ''}`}
      data-testid={`answer-${side}`}
      data-state={state}
      aria-labelledby={titleId}
      aria-busy={busy}
    >
      <header className="pane__head">
        <div className="pane__title">
          <span className="pane__badge" aria-hidden="true">
            {side.toUpperCase()}
          </span>
          <Heading id={titleId} className="pane__label">
            {name}
          </Heading>
          {picked && <span className="pane__picked">{t('side.winner')}</span>}
        </div>
        <span className={`pane__status pane__status--${cancelled && state === 'done' ? 'stopped' : state}`} data-testid={`status-${side}`}>
          {busy && <span className="pane__pulse" aria-hidden="true" />}
          {statusText}
        </span>
      </header>
      {revealed && (
        <p className="pane__reveal" data-testid={`reveal-${side}`}>
          {t('side.revealed', { label: revealed })}
        </p>
      )}
      <div
        className="pane__progress"
        role="progressbar"
        aria-label={t('side.progress', { label: name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
      >
        <div className="pane__progress-bar" style={{ width: `${progress}%` }} />
      </div>

      <div className="pane__body">
        {diff ? (
          <AnswerDiffText diff={diff} side={side} />
        ) : view?.text ? (
          <Markdown>{view.text}</Markdown>
        ) : state === 'waiting' || state === 'streaming' ? (
          <div className="pane__waiting">
            <span className="pane-typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span className="visually-hidden">{t('side.thinking')}</span>
            <div className="pane-skeleton" aria-hidden="true">
              <span style={{ width: '92%' }} />
              <span style={{ width: '78%' }} />
              <span style={{ width: '85%' }} />
              <span style={{ width: '60%' }} />
            </div>
          </div>
        ) : state === 'done' ? (
          <p className="pane__empty">{t('side.emptyAnswer')}</p>
        ) : null}
        {state === 'error' && view?.error && (
          <p className="pane__error" role="alert" data-testid={`error-${side}`}>
            {sideErrorMessage(t, view.error.code)}
          </p>
        )}
        {state === 'done' && view?.stats?.finishReason === 'length' && <p className="pane__note">{t('side.truncated')}</p>}
        {state === 'done' && view?.stats?.finishReason === 'content_filter' && <p className="pane__note">{t('side.filtered')}</p>}
        {state === 'done' && cancelled && <p className="pane__note">{t('side.cancelledNote')}</p>}
      </div>

      {stats && hasFigures(stats) && <Stats stats={stats} side={side} />}
      {stats && !hasFigures(stats) && !revealed && (
        <p className="pane__stats-note" data-testid={`stats-note-${side}`}>
          {t('side.figuresAfterVote')}
        </p>
      )}
    </article>
  );
}

/** Whether any figure came with the finish reason (a blind battle sends none before the vote). */
const hasFigures = (stats: ShownStats): boolean =>
  stats.ttftMs !== undefined || stats.durationMs !== undefined || stats.outputTokens !== undefined;

/**
 * Time to first token, output speed, total time and tokens of a finished answer: each figure
 * that was sent (a dash when the provider did not report it).
 */
function Stats({ stats, side }: { stats: ShownStats; side: Side }) {
  const { t, i18n } = useTranslation('battle');
  const one = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const na = t('side.notAvailable');
  const secs = (ms: number | null) => (ms === null ? na : t('side.seconds', { value: one.format(ms / 1000) }));
  const { ttftMs, durationMs, outputTokens } = stats;
  const streamMs = ttftMs === undefined || ttftMs === null || durationMs === undefined ? null : durationMs - ttftMs;
  const speed =
    outputTokens !== undefined && outputTokens !== null && streamMs !== null && streamMs > 0
      ? t('side.tokensPerSecond', { value: one.format((outputTokens / streamMs) * 1000) })
      : na;
  const figures: Array<[label: string, value: string]> = [];
  if (ttftMs !== undefined) figures.push([t('side.ttft'), secs(ttftMs)]);
  if (outputTokens !== undefined && durationMs !== undefined) figures.push([t('side.speed'), speed]);
  if (durationMs !== undefined) figures.push([t('side.duration'), secs(durationMs)]);
  if (outputTokens !== undefined) figures.push([t('side.tokens'), outputTokens === null ? na : whole.format(outputTokens)]);
  return (
    <dl className="pane__stats" aria-label={t('side.statsLabel')} data-testid={`stats-${side}`}>
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
