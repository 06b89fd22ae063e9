import type { ModerationQueueItem } from '@duet/contracts';
import { findTool } from '@duet/contracts/catalog';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format.ts';
import { AdminImage } from './AdminImage.tsx';
import { DecisionBar } from './DecisionBar.tsx';
import type { Decision } from './DecisionBar.tsx';

interface BattleViewProps {
  battle: ModerationQueueItem;
  busy: boolean;
  onDecide: (decision: Decision) => void;
}

/** The battle in focus, as stored: question, inputs, image, both answers (plain text: model output is untrusted), and its moderation. */
export const BattleView = forwardRef<HTMLElement, BattleViewProps>(function BattleView({ battle, busy, onDecide }, ref) {
  const { t, i18n } = useTranslation('admin');
  const tool = findTool(battle.tool);
  const inputs = Object.entries(battle.question.inputs).filter(([, v]) => v !== undefined);
  const m = battle.moderation;

  return (
    <article ref={ref} tabIndex={-1} className="adm-card adm-battle" aria-labelledby={`battle-${battle.id}`} data-testid="admin-battle" data-battle={battle.id}>
      <header className="adm-battle__head">
        <h2 id={`battle-${battle.id}`} className="adm-h2">
          {tool ? t(tool.titleKey, { ns: 'contents' }) : battle.tool}
        </h2>
        <p className="adm-muted adm-small">
          {formatDateTime(battle.createdAt, i18n.language)} · {battle.lang} · {t(`moderation.status.${battle.status}`)}
          <span className="adm-id"> {battle.id}</span>
        </p>
      </header>

      <section className="adm-battle__question">
        <h3 className="adm-h3">{t('moderation.question')}</h3>
        <p className="adm-plain" data-testid="admin-battle-question">
          {battle.question.text || <span className="adm-muted">{t('moderation.noText')}</span>}
        </p>
        {inputs.length > 0 && (
          <dl className="adm-inputs">
            {inputs.map(([key, value]) => (
              <div key={key}>
                <dt>{t(`inputs.${key}`, { defaultValue: key })}</dt>
                <dd>{Array.isArray(value) ? value.join(', ') : String(value)}</dd>
              </div>
            ))}
          </dl>
        )}
        {battle.question.imageUrl && <AdminImage url={battle.question.imageUrl} alt={t('moderation.imageAlt')} />}
      </section>

      <div className="adm-answers">
        {(['a', 'b'] as const).map((side) => {
          const s = battle.sides[side];
          return (
            <section key={side} className={`adm-answer adm-answer--${side}`}>
              <h3 className="adm-h3">
                {t('moderation.side', { side: side.toUpperCase() })} · {s.label} <span className="adm-id">{s.model}</span>
              </h3>
              {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
              <div
                className="adm-plain adm-answer__text"
                tabIndex={0}
                role="region"
                aria-label={t('moderation.side', { side: side.toUpperCase() })}
                data-testid={`admin-answer-${side}`}
              >
                {s.text ?? <span className="adm-muted">{t('moderation.noAnswer')}</span>}
              </div>
              {(s.errorCode || (s.finishReason && s.finishReason !== 'stop')) && (
                <p className="adm-muted adm-small">{s.errorCode ?? s.finishReason}</p>
              )}
            </section>
          );
        })}
      </div>

      <section className="adm-battle__verdict">
        <h3 className="adm-h3">{t('moderation.verdict')}</h3>
        <p>
          <span className={`adm-badge adm-badge--${m.state}`}>{t(`moderation.states.${m.state}`)}</span>{' '}
          {m.categories.length > 0 ? (
            m.categories.map((c) => (
              <span key={c} className="adm-chip">
                {c}
              </span>
            ))
          ) : (
            <span className="adm-muted">{t('moderation.noCategories')}</span>
          )}
        </p>
        <p className="adm-small" data-testid="admin-battle-by">
          {m.by ? t('moderation.by', { by: m.by, when: m.at ? formatDateTime(m.at, i18n.language) : '—' }) : t('moderation.notDecided')}
        </p>
        {m.reason && <p className="adm-small">{t('moderation.reason', { reason: m.reason })}</p>}
      </section>

      <DecisionBar state={m.state} busy={busy} onDecide={onDecide} />
    </article>
  );
});
