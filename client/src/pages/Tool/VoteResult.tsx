import type { Side, VoteResponse } from '@duet/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { WinRates } from '../../components/WinRates/WinRates.tsx';
import { ShareDuel } from './ShareDuel.tsx';
import { VoteReasons } from './VoteReasons.tsx';

interface VoteResultProps {
  vote: VoteResponse;
  /** The battle's vote token, for the vote's reasons. */
  voteToken: string;
  historyHref: string;
  onAskAgain: () => void;
}

/** After the vote: what was picked, who was who, optionally why, a link to the duel, this tool's win rates, and a way to ask again. */
export function VoteResult({ vote, voteToken, historyHref, onAskAgain }: VoteResultProps) {
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
          <SpeedLines vote={vote} />
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
      <VoteReasons battleId={vote.battleId} voteToken={voteToken} winner={vote.winner} given={vote.reasons} />
      <ShareDuel battleId={vote.battleId} title={t('share.title', { a: vote.sides.a.label, b: vote.sides.b.label })} />
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

/** "Model A (label): first word after 0.4 s, 62 tokens/s", for each side whose figures came back. */
function SpeedLines({ vote }: { vote: VoteResponse }) {
  const { t, i18n } = useTranslation('battle');
  const one = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const lines = (['a', 'b'] as const satisfies readonly Side[]).flatMap((side) => {
    const s = vote.sides[side];
    if (!s.stats || s.stats.ttftMs === null) return [];
    const streamMs = s.stats.durationMs - s.stats.ttftMs;
    const base = { side: t('result.side', { side: side.toUpperCase() }), label: s.label, seconds: one.format(s.stats.ttftMs / 1000) };
    const text =
      s.stats.outputTokens !== null && streamMs > 0
        ? t('result.speed', { ...base, rate: whole.format((s.stats.outputTokens / streamMs) * 1000) })
        : t('result.speedNoRate', base);
    return [{ side, text }];
  });
  if (lines.length === 0) return null;
  return (
    <ul className="vote-result__speed" aria-label={t('result.speedLabel')} data-testid="reveal-speed">
      {lines.map((l) => (
        <li key={l.side} data-side={l.side}>
          {l.text}
        </li>
      ))}
    </ul>
  );
}
