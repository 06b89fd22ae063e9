import type { AnswerStats, Side, VoteResponse } from '@duet/contracts';
import type { SideView } from '@duet/contracts/live';
import type { ReactNode } from 'react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DiffToggle } from '../../components/AnswerDiff/AnswerDiff.tsx';
import { diffAnswers } from '../../components/AnswerDiff/answer-diff.ts';
import type { Turn } from '../../state/conversation.ts';
import { bothAnswered } from '../../state/conversation.ts';
import { AnswerPane } from './AnswerPane.tsx';
import './BattleTurns.css';

interface BattleTurnsProps {
  turns: readonly Turn[];
  /** The labels from the creation answer, used until a turn's snapshot arrives. */
  labels: Record<Side, string>;
  vote: VoteResponse | undefined;
  /** The current turn still waits in the queue: no model has been asked yet. */
  inLine: boolean;
  /** The Stop button of the current turn, while it runs. */
  stop: ReactNode;
  /** What holds up the current turn (its place in line, a stall), above its answers. */
  status: ReactNode;
  /** The turn to move focus to: a follow-up just sent. */
  focusTurnId: string | null;
}

/**
 * The battle's answers under their heading. One question: its two answers side by side, Stop and the
 * difference toggle beside the heading. A conversation: a list of turns, each with its own heading
 * and controls, the visitor's follow-up and the two answers to it.
 */
export function BattleTurns({ turns, labels, vote, inLine, stop, status, focusTurnId }: BattleTurnsProps) {
  const { t } = useTranslation('battle');
  // The turns shown in difference mode: a new turn starts with it off.
  const [diffIds, setDiffIds] = useState<ReadonlySet<string>>(() => new Set());
  const last = turns[turns.length - 1];
  if (!last) return null;
  const many = turns.length > 1;

  // The difference is offered once both texts of a turn are complete, and when there are two to compare.
  const diffable = (turn: Turn) => bothAnswered(turn.snapshot) && !!turn.snapshot?.sides.a.text && !!turn.snapshot.sides.b.text;
  const diffOn = (turn: Turn) => diffable(turn) && diffIds.has(turn.battleId);
  const toggle = (turn: Turn) =>
    diffable(turn) && (
      <DiffToggle
        on={diffOn(turn)}
        onChange={(on) =>
          setDiffIds((ids) => {
            const next = new Set(ids);
            if (on) next.add(turn.battleId);
            else next.delete(turn.battleId);
            return next;
          })
        }
        testId="diff-toggle"
      />
    );

  const controls = (turn: Turn) => (
    <>
      {turn === last && stop}
      {toggle(turn)}
    </>
  );

  return (
    <>
      <div className="duet-battle__bar">
        <h2 id="answers-heading" className="tool-page__section-title">
          {t('battle.heading')}
        </h2>
        {!many && stop}
        {!many && toggle(last)}
      </div>
      {many ? (
        <ol className="duet-turns" aria-label={t('turns.label')} data-testid="turns">
          {turns.map((turn) => (
            <TurnItem key={turn.battleId} turn={turn} focus={turn.battleId === focusTurnId} controls={controls(turn)}>
              <TurnPanes turn={turn} labels={labels} vote={vote} inLine={inLine && turn === last} diffOn={diffOn(turn)} nested />
            </TurnItem>
          ))}
        </ol>
      ) : (
        <>
          {status}
          <TurnPanes turn={last} labels={labels} vote={vote} inLine={inLine} diffOn={diffOn(last)} />
        </>
      )}
      {many && status}
    </>
  );
}

interface TurnItemProps {
  turn: Turn;
  focus: boolean;
  /** Stop, the difference toggle: beside the turn's heading. */
  controls: ReactNode;
  children: ReactNode;
}

/** One turn of a conversation: its heading and controls, the follow-up asked, then the answers. */
function TurnItem({ turn, focus, controls, children }: TurnItemProps) {
  const { t } = useTranslation('battle');
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  // The form the visitor sent from is gone: focus goes to the turn it started.
  useEffect(() => {
    if (!focus) return;
    heading.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [focus]);

  return (
    <li className="duet-turn" aria-labelledby={headingId} data-testid={`turn-${turn.number}`} data-turn={turn.number}>
      <div className="duet-turn__bar">
        <h3 id={headingId} className="duet-turn__heading" tabIndex={-1} ref={heading}>
          {t('turns.heading', { number: turn.number })}
        </h3>
        {controls}
      </div>
      {turn.ask && (
        <div className="duet-turn__ask" data-testid="turn-question">
          <p className="duet-turn__who">{t('turns.asked')}</p>
          <p className="duet-turn__text">{turn.ask.text}</p>
          {turn.ask.imageUrl && <img className="duet-turn__img" src={turn.ask.imageUrl} alt={t('turns.image')} />}
        </div>
      )}
      {children}
    </li>
  );
}

interface TurnPanesProps {
  turn: Turn;
  labels: Record<Side, string>;
  vote: VoteResponse | undefined;
  inLine: boolean;
  diffOn: boolean;
  /** Inside a turn of a conversation: the answers' headings rank under the turn's. */
  nested?: boolean;
}

/** A turn's two answers side by side (stacked on a phone), in difference mode when it is on. */
function TurnPanes({ turn, labels, vote, inLine, diffOn, nested }: TurnPanesProps) {
  const textA = turn.snapshot?.sides.a.text ?? '';
  const textB = turn.snapshot?.sides.b.text ?? '';
  const diff = useMemo(() => (diffOn ? diffAnswers(textA, textB) : null), [diffOn, textA, textB]);
  return (
    <div className="duet-battle__panes">
      {(['a', 'b'] as const).map((side) => (
        <AnswerPane
          key={side}
          side={side}
          // The vote's figures are the first turn's.
          view={turn.number === 1 ? withVoteStats(turn.snapshot?.sides[side] ?? null, vote?.sides[side].stats) : (turn.snapshot?.sides[side] ?? null)}
          label={labels[side]}
          revealed={vote?.sides[side].label}
          picked={vote?.winner === side}
          inLine={inLine}
          diff={diff}
          headingLevel={nested ? 4 : 3}
        />
      ))}
    </div>
  );
}

/** A side as shown: once voted on, with the figures the vote revealed (a blind battle kept them back). */
function withVoteStats(view: SideView | null, revealed: AnswerStats | null | undefined): SideView | null {
  return view && revealed ? { ...view, stats: revealed } : view;
}
