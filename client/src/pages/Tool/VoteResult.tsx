import type { VoteResponse } from '@duet/shared';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { WinRates } from '../../components/WinRates/WinRates.tsx';

interface VoteResultProps {
  vote: VoteResponse;
  historyHref: string;
  onAskAgain: () => void;
}

/** After the vote: what was picked, who was who, this tool's win rates, and a way to ask again. */
export function VoteResult({ vote, historyHref, onAskAgain }: VoteResultProps) {
  const { t } = useTranslation('battle');
  const heading = useRef<HTMLHeadingElement>(null);

  // The vote buttons vanish: move focus to the outcome so keyboard users are not lost.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="vote-result duet-card" aria-labelledby="result-heading" data-testid="vote-result">
      <div className="vote-result__top">
        <div>
          <h2 id="result-heading" className="vote-result__heading" tabIndex={-1} ref={heading}>
            {t('result.heading')}
          </h2>
          <p className="vote-result__picked" data-testid="vote-picked">
            {t('result.youPicked', { choice: t(`vote.${vote.winner}`) })}
          </p>
          <p className="vote-result__reveal" data-testid="reveal">
            {t('result.reveal', { a: vote.sides.a.label, b: vote.sides.b.label })}
          </p>
        </div>
        <div className="vote-result__actions">
          <button type="button" className="btn btn--primary" onClick={onAskAgain} data-testid="ask-again">
            {t('result.askAgain')}
          </button>
          <Link className="btn" to={historyHref}>
            {t('result.seeHistory')}
          </Link>
        </div>
      </div>
      <h3 id="result-winrates" className="vote-result__sub">
        {t('result.winRatesHeading')}
      </h3>
      <WinRates
        winRates={vote.winRates}
        labelledBy="result-winrates"
        highlight={[vote.sides.a.model, vote.sides.b.model]}
      />
    </section>
  );
}
