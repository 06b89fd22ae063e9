import type { Side, VoteReason, Winner } from '@duet/contracts';
import { PASSED_REASONS, PICKED_REASONS, VOTE_REASONS } from '@duet/contracts/schemas/vote-reason.schema';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { duetApi } from '../../api/duet-api.ts';
import { ApiError } from '../../api/http.ts';
import { apiErrorMessage } from './messages.ts';

interface VoteReasonsProps {
  battleId: string;
  /** The battle's vote token: only its holder may add the vote's reasons. */
  voteToken: string;
  winner: Winner;
  /** Reasons stored with the vote already (none when it went without). */
  given: readonly VoteReason[];
}

/** A group of chips: the reasons said of the picked answer(s), or of the passed-over one(s). */
interface ReasonGroup {
  kind: 'picked' | 'passed';
  question: string;
  reasons: readonly VoteReason[];
}

const otherSide = (side: Side): Side => (side === 'a' ? 'b' : 'a');

/** Which questions fit the vote: a "both bad" vote picked neither answer, so it has no reasons for picking. */
function reasonGroups(t: TFunction<'battle'>, winner: Winner): ReasonGroup[] {
  const passed = (question: string): ReasonGroup => ({ kind: 'passed', question, reasons: PASSED_REASONS });
  const picked = (question: string): ReasonGroup => ({ kind: 'picked', question, reasons: PICKED_REASONS });
  switch (winner) {
    case 'both_bad':
      return [passed(t('reasons.passedBoth'))];
    case 'tie':
      return [picked(t('reasons.pickedBoth')), passed(t('reasons.passedBoth'))];
    default:
      return [
        picked(t('reasons.pickedSide', { side: winner.toUpperCase() })),
        passed(t('reasons.passedSide', { side: otherSide(winner).toUpperCase() })),
      ];
  }
}

/**
 * After the vote, optionally: why. Toggle chips for the reasons that fit the vote, sent once to
 * `POST /api/battles/:id/reasons`; then what was sent, or why it was not taken.
 */
export function VoteReasons({ battleId, voteToken, winner, given }: VoteReasonsProps) {
  const { t } = useTranslation('battle');
  const headingId = useId();
  const hintId = useId();
  const thanks = useRef<HTMLParagraphElement>(null);
  const [chosen, setChosen] = useState<ReadonlySet<VoteReason>>(() => new Set());
  const send = useMutation({
    mutationFn: (reasons: VoteReason[]) => duetApi.addReasons(battleId, { voteToken, reasons }),
  });

  const groups = reasonGroups(t, winner);
  const sent = send.data?.reasons ?? (given.length > 0 ? given : null);
  // A refusal that sending again cannot change (reasons given already, too late): the chips close.
  const closed = send.error instanceof ApiError && send.error.status === 409;

  // The chips and the button vanish: move focus to what replaced them so keyboard users are not lost.
  useEffect(() => {
    if (send.isSuccess) thanks.current?.focus();
  }, [send.isSuccess]);

  const toggle = (reason: VoteReason) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (!next.delete(reason)) next.add(reason);
      return next;
    });

  return (
    <section className="vote-reasons" aria-labelledby={headingId} data-testid="vote-reasons">
      <h3 id={headingId} className="vote-reasons__heading">
        {t('reasons.heading')} <span className="vote-reasons__optional">{t('reasons.optional')}</span>
      </h3>
      {sent ? (
        <div className="vote-reasons__sent" data-testid="reasons-sent">
          <p className="vote-reasons__thanks" tabIndex={-1} ref={thanks}>
            {t('reasons.thanks')}
          </p>
          {groups.map((g) => {
            const said = g.reasons.filter((r) => sent.includes(r));
            if (said.length === 0) return null;
            return (
              <div key={g.kind} className="vote-reasons__group" data-kind={g.kind}>
                <p className="vote-reasons__question">{g.question}</p>
                <ul className="vote-reasons__list">
                  {said.map((r) => (
                    <li key={r} className="vote-reasons__chip vote-reasons__chip--sent" data-reason={r}>
                      {t(`reasons.label.${r}`)}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </div>
      ) : (
        <>
          <p id={hintId} className="vote-reasons__hint">
            {t('reasons.hint')}
          </p>
          {groups.map((g) => (
            <ReasonChips key={g.kind} group={g} chosen={chosen} disabled={send.isPending || closed} onToggle={toggle} />
          ))}
          {!closed && (
            <button
              type="button"
              className="btn btn--primary vote-reasons__send"
              onClick={() => send.mutate(VOTE_REASONS.filter((r) => chosen.has(r)))}
              disabled={chosen.size === 0 || send.isPending}
              aria-describedby={hintId}
              data-testid="reasons-send"
            >
              {send.isPending ? t('reasons.sending') : t('reasons.send')}
            </button>
          )}
          {send.isError && (
            <p className="vote-reasons__error" role="alert" data-testid="reasons-error">
              {apiErrorMessage(t, send.error)}
            </p>
          )}
        </>
      )}
    </section>
  );
}

interface ReasonChipsProps {
  group: ReasonGroup;
  chosen: ReadonlySet<VoteReason>;
  disabled: boolean;
  onToggle: (reason: VoteReason) => void;
}

/** One question and its reasons as toggle buttons: pressed shows a tick, not only a colour. */
function ReasonChips({ group, chosen, disabled, onToggle }: ReasonChipsProps) {
  const { t } = useTranslation('battle');
  const questionId = useId();
  return (
    <div className="vote-reasons__group" role="group" aria-labelledby={questionId} data-kind={group.kind}>
      <p id={questionId} className="vote-reasons__question">
        {group.question}
      </p>
      <div className="vote-reasons__chips">
        {group.reasons.map((r) => {
          const on = chosen.has(r);
          return (
            <button
              key={r}
              type="button"
              className="vote-reasons__chip"
              aria-pressed={on}
              disabled={disabled}
              onClick={() => onToggle(r)}
              data-reason={r}
            >
              <span className="vote-reasons__mark" aria-hidden="true">
                {on ? '✓' : '+'}
              </span>
              {t(`reasons.label.${r}`)}
            </button>
          );
        })}
      </div>
    </div>
  );
}
