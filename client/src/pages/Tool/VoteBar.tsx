import type { Winner } from '@duet/contracts';
import { useTranslation } from 'react-i18next';

/** The four choices, in the order they read left to right: A, tie, both bad, B. */
export const VOTE_CHOICES: readonly Winner[] = ['a', 'tie', 'both_bad', 'b'];

interface VoteBarProps {
  onVote: (winner: Winner) => void;
  /** Both answers are in but not yet stored: the choices wait (a vote would be refused). */
  saving: boolean;
  pending: Winner | null;
  error: string | null;
  /** The battle has follow-ups: the vote judges the whole conversation. */
  conversation?: boolean;
}

/** Asks which answer is better once both are in; the choices open once both are stored. */
export function VoteBar({ onVote, saving, pending, error, conversation }: VoteBarProps) {
  const { t } = useTranslation('battle');
  return (
    <section className="vote-bar duet-card" aria-labelledby="vote-heading" data-testid="vote-bar">
      <h2 id="vote-heading" className="vote-bar__heading">
        {t('vote.heading')}
      </h2>
      <p className="vote-bar__hint">{conversation ? t('vote.hintConversation') : t('vote.hint')}</p>
      <div className="vote-bar__buttons" role="group" aria-labelledby="vote-heading">
        {VOTE_CHOICES.map((w) => (
          <button
            key={w}
            type="button"
            className={`btn vote-bar__btn vote-bar__btn--${w}`}
            onClick={() => onVote(w)}
            disabled={saving || pending !== null}
            aria-busy={pending === w}
            data-testid={`vote-${w}`}
          >
            {w === 'a' && <span className="vote-bar__chip vote-bar__chip--a" aria-hidden="true">A</span>}
            {t(`vote.${w}`)}
            {w === 'b' && <span className="vote-bar__chip vote-bar__chip--b" aria-hidden="true">B</span>}
          </button>
        ))}
      </div>
      {saving && (
        <p className="vote-bar__status vote-bar__wait" role="status" data-testid="vote-saving">
          <span className="vote-bar__pulse" aria-hidden="true" />
          {t('vote.waitSaving')}
        </p>
      )}
      {pending && (
        <p className="vote-bar__status" role="status">
          {t('vote.sending')}
        </p>
      )}
      {error && (
        <p className="vote-bar__error" role="alert" data-testid="vote-error">
          {error}
        </p>
      )}
    </section>
  );
}
