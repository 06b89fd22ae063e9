import type { CreateBattleRequest, CreateBattleResponse, Winner } from '@duet/contracts';
import type { ToolDefinition } from '@duet/contracts/tools';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { askWithChallenge, challengeSolver } from '../../api/challenge.ts';
import { duetApi } from '../../api/duet-api.ts';
import { metaQuery, useMeta } from '../../api/use-meta.ts';
import { historyToolKey } from '../../api/history-query.ts';
import { forgetBattle, recallBattle, rememberBattle, useLiveBattle } from '../../api/use-live-battle.ts';
import { preloadMarkdown } from '../../components/Markdown/LazyMarkdown.tsx';
import { bothAnswered, conversationFinished, conversationVoted, currentTurn, nextTurn, startConversation } from '../../state/conversation.ts';
import { useDuetStore } from '../../state/store.ts';
import { toast } from '../../state/toasts.ts';
import NotFoundPage from '../NotFound/NotFoundPage.tsx';
import { toolForRoute } from '../tool-route.ts';
import { BattleTurns } from './BattleTurns.tsx';
import { FollowUpForm, TurnLimitNote } from './FollowUpForm.tsx';
import { apiErrorMessage, chosenModelsRefused, followUpErrorMessage, queuePlaceMessage, signUpWouldHelp } from './messages.ts';
import { usePacedText } from './paced-text.ts';
import { choosableModels } from './model-choice.ts';
import { ToolForm } from './ToolForm.tsx';
import { VoteBar } from './VoteBar.tsx';
import { VoteResult } from './VoteResult.tsx';
import './ToolPage.css';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

/** How long to wait for a turn's first snapshot before offering to start over. */
const STALL_MS = 15_000;

/**
 * `/:contentTitle`: one tool's question form, the two live answers, follow-up questions (each
 * turn's two answers in turn), the vote and the reveal.
 */
export default function ToolPage() {
  const { contentTitle } = useParams();
  const tool = toolForRoute(contentTitle);
  if (!tool) return <NotFoundPage />;
  return <ToolScreen key={tool.slug} tool={tool} />;
}

function ToolScreen({ tool }: { tool: ToolDefinition }) {
  const { t } = useTranslation('battle');
  const queryClient = useQueryClient();
  const promptResult = useDuetStore((s) => s.promptResult);
  const conversation = useDuetStore((s) => s.conversation);
  const queuePlace = useDuetStore((s) => s.queuePlace);
  const setPromptResult = useDuetStore((s) => s.setPromptResult);
  const addFollowUp = useDuetStore((s) => s.addFollowUp);
  const resetBattle = useDuetStore((s) => s.resetBattle);
  const answersRef = useRef<HTMLElement>(null);
  const [stalledId, setStalledId] = useState<string | null>(null);
  // The follow-up just sent: focus moves to its turn.
  const [focusTurnId, setFocusTurnId] = useState<string | null>(null);

  const created = promptResult.battle;
  const vote = promptResult.vote && created && promptResult.vote.battleId === created.battleId ? promptResult.vote : undefined;
  // Until the socket has told anything, the battle asked is a first turn with no snapshot yet.
  const shown = created ? (conversation?.battleId === created.battleId ? conversation : startConversation(created.battleId)) : null;
  const current = shown ? currentTurn(shown) : null;
  const snapshot = current?.snapshot ?? null;
  const title = t(`contents:${tool.titleKey}`);
  const historyHref = `/history${tool.route}`;

  const meta = useMeta();

  useDocumentTitle(t('pageTitle', { title }));

  // A battle this tab started on this tool (before a reload) is resumed; otherwise a clean slate.
  useEffect(() => {
    resetBattle();
    const recalled = recallBattle(tool.slug);
    if (recalled) setPromptResult({ battle: recalled });
    return () => resetBattle();
  }, [tool.slug, resetBattle, setPromptResult]);

  useLiveBattle(created?.battleId ?? null);
  // A battle to show (a resumed one too): its answers will need the Markdown renderer.
  useEffect(() => {
    if (created) preloadMarkdown();
  }, [created]);

  // A resumed battle that was voted on already: nothing more to do with it, show the empty form.
  const votedElsewhere = !!shown && conversationVoted(shown) && !vote;
  useEffect(() => {
    if (votedElsewhere) {
      forgetBattle(tool.slug);
      resetBattle();
    }
  }, [votedElsewhere, tool.slug, resetBattle]);

  // No snapshot of the current turn for a long while (battle gone, gateway unreachable): offer to start over.
  const currentId = current?.battleId ?? null;
  useEffect(() => {
    if (!currentId || snapshot) return;
    const timer = setTimeout(() => setStalledId(currentId), STALL_MS);
    return () => clearTimeout(timer);
  }, [currentId, snapshot]);
  const stalled = !!currentId && !snapshot && stalledId === currentId;

  // The challenge of the next question is solved while the visitor writes it.
  useEffect(() => {
    if (meta?.challenge) challengeSolver.prepare();
  }, [meta?.challenge]);

  const create = useMutation({
    mutationFn: ({ req, image }: { req: CreateBattleRequest; image: File | null }) =>
      askWithChallenge(meta?.challenge === true, (challenge) => duetApi.createBattle(req, image, challenge)),
    onSuccess: (res: CreateBattleResponse) => {
      rememberBattle(tool.slug, res);
      setPromptResult({ battle: res });
      requestAnimationFrame(() => answersRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    },
    // The roster changed since the page loaded: the choice offers the models of now.
    onError: (err) => {
      if (chosenModelsRefused(err)) void queryClient.invalidateQueries({ queryKey: metaQuery.queryKey });
    },
  });

  const castVote = useMutation({
    mutationFn: ({ battle, winner }: { battle: CreateBattleResponse; winner: Winner }) =>
      duetApi.vote(battle.battleId, { winner, voteToken: battle.voteToken }),
    onSuccess: (res, { battle }) => {
      forgetBattle(tool.slug);
      setPromptResult({ battle, vote: res });
      void queryClient.invalidateQueries({ queryKey: historyToolKey(tool.slug) });
    },
  });

  // Stop acts on the turn running: its own id, the battle's vote token.
  const cancel = useMutation({
    mutationFn: ({ turnBattleId, voteToken }: { turnBattleId: string; voteToken: string }) => duetApi.cancel(turnBattleId, voteToken),
    onError: (err) => toast.error(apiErrorMessage(t, err)),
  });

  const followUp = useMutation({
    mutationFn: ({ battle, text, image }: { battle: CreateBattleResponse; text: string; image: File | null }) =>
      duetApi.followUp(battle.battleId, { text, voteToken: battle.voteToken }, image),
    onSuccess: (res, { text, image }) => {
      addFollowUp(res.battleId, { turn: res.turn.number, battleId: res.turn.battleId, text, imageUrl: image ? URL.createObjectURL(image) : null });
      setFocusTurnId(res.turn.battleId);
      cancel.reset();
    },
  });

  const finished = !!snapshot?.finished;
  // Both texts are complete; the vote opens once every turn's are stored too.
  const answered = bothAnswered(snapshot);
  const running = !!created && !vote && !finished && !stalled;
  const streaming = running && !!snapshot && !answered;
  const next = shown ? nextTurn(shown, { maxTurns: meta?.maxTurns, voted: !!vote }) : null;
  // The current turn still waits for a worker: its place in line, while neither model has started.
  const inLine =
    queuePlace && queuePlace.battleId === currentId && !snapshot?.sides.a.text && !snapshot?.sides.b.text && snapshot?.sides.a.state === 'waiting'
      ? queuePlace
      : null;

  function startOver() {
    forgetBattle(tool.slug);
    resetBattle();
    create.reset();
    castVote.reset();
    cancel.reset();
    followUp.reset();
    requestAnimationFrame(() => {
      const form = document.querySelector<HTMLElement>('.tool-page__ask .ask input:not([type=hidden]):not(:disabled), .tool-page__ask .ask textarea');
      form?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      form?.focus({ preventScroll: true });
    });
  }

  // The place in line is read out when it first shows, then at most every 30 s, not at each move.
  const inLineAnnounce = usePacedText(inLine ? queuePlaceMessage(t, inLine) : '', 30_000);
  const finishedAnnounce = current && current.number > 1 ? t('turns.finishedAnnounce', { number: current.number }) : t('battle.finishedAnnounce');
  const announce = vote ? t('battle.votedAnnounce') : finished ? finishedAnnounce : inLineAnnounce;

  const stopping = cancel.isPending || (cancel.isSuccess && cancel.variables.turnBattleId === currentId);
  const stopButton = streaming && created && currentId && (
    <button
      type="button"
      className="btn btn--stop"
      onClick={() => cancel.mutate({ turnBattleId: currentId, voteToken: created.voteToken })}
      disabled={stopping}
      data-testid="stop"
    >
      <span className="btn--stop__icon" aria-hidden="true" />
      {stopping ? t('battle.stopping') : t('battle.stop')}
    </button>
  );
  const turnStatus = (
    <>
      {stalled && (
        <div className="duet-battle__stalled" role="alert">
          <span>{t('battle.stalled')}</span>
          <button type="button" className="btn btn--sm" onClick={startOver}>
            {t('battle.startOver')}
          </button>
        </div>
      )}
      {inLine && (
        <p className="duet-battle__queued" data-testid="queue-place">
          {queuePlaceMessage(t, inLine)}
        </p>
      )}
    </>
  );

  return (
    <div className="tool-page container">
      <nav className="duet-crumbs" aria-label={t('breadcrumb.label')}>
        <Link to="/">{t('breadcrumb.home')}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{title}</span>
      </nav>

      <header className="tool-page__head">
        <div className="tool-page__intro">
          <h1 className="tool-page__title">{title}</h1>
          <p className="tool-page__desc">{t(`contents:${tool.descriptionKey}`)}</p>
        </div>
        <Link className="btn tool-page__history" to={historyHref} data-testid="history-link">
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path fill="currentColor" d="M5 9.2h3V19H5zM10.6 5h2.8v14h-2.8zm5.6 8H19v6h-2.8z" />
          </svg>
          {t('tool.historyLink')}
        </Link>
      </header>

      {meta?.demoModels && (
        <p className="tool-page__demo" role="note" data-testid="demo-note">
          <span aria-hidden="true">ℹ️</span> {t('tool.demoNote')}
        </p>
      )}

      <section className="duet-card tool-page__ask" aria-labelledby="ask-heading">
        <h2 id="ask-heading" className="tool-page__section-title">
          {t('tool.askHeading')}
        </h2>
        <ToolForm
          tool={tool}
          busy={create.isPending || followUp.isPending || running}
          submitting={create.isPending}
          inLine={inLine !== null}
          serverError={create.isError ? apiErrorMessage(t, create.error, undefined, !!create.variables?.req.models) : null}
          offerSignUp={create.isError && signUpWouldHelp(create.error)}
          models={choosableModels(meta)}
          onSubmit={(req, image) => {
            castVote.reset();
            cancel.reset();
            followUp.reset();
            create.mutate({ req, image });
          }}
        />
      </section>

      <p className="visually-hidden" aria-live="polite" data-testid="battle-announcer">
        {announce}
      </p>

      {created && shown && (
        <section className="duet-battle" ref={answersRef} aria-labelledby="answers-heading" data-testid="battle">
          <BattleTurns
            turns={shown.turns}
            labels={{ a: created.sides.a.label, b: created.sides.b.label }}
            vote={vote}
            inLine={inLine !== null}
            stop={stopButton}
            status={turnStatus}
            focusTurnId={focusTurnId}
          />

          {next?.kind === 'ask' && (
            <FollowUpForm
              key={currentId}
              tool={tool}
              number={next.number}
              maxTurns={meta?.maxTurns}
              sending={followUp.isPending}
              serverError={followUp.isError ? followUpErrorMessage(t, followUp.error) : null}
              onSubmit={(text, image) => followUp.mutate({ battle: created, text, image })}
            />
          )}
          {next?.kind === 'limit' && meta && <TurnLimitNote maxTurns={meta.maxTurns} />}

          {answered && !vote && (
            <VoteBar
              onVote={(winner) => castVote.mutate({ battle: created, winner })}
              saving={!conversationFinished(shown)}
              pending={castVote.isPending ? (castVote.variables?.winner ?? null) : null}
              error={castVote.isError ? apiErrorMessage(t, castVote.error) : null}
              conversation={shown.turns.length > 1}
            />
          )}
          {vote && <VoteResult vote={vote} voteToken={created.voteToken} historyHref={historyHref} onAskAgain={startOver} />}
        </section>
      )}
    </div>
  );
}
