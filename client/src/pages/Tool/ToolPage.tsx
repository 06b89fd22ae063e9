import type { AnswerStats, CreateBattleRequest, CreateBattleResponse, Winner } from '@duet/contracts';
import type { SideView } from '@duet/contracts/live';
import { sideEnded } from '@duet/contracts/live';
import type { ToolDefinition } from '@duet/contracts/tools';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { askWithChallenge, challengeSolver } from '../../api/challenge.ts';
import { duetApi } from '../../api/duet-api.ts';
import { metaQuery, useMeta } from '../../api/use-meta.ts';
import { historyToolKey } from '../../api/history-query.ts';
import { forgetBattle, recallBattle, rememberBattle, useLiveBattle } from '../../api/use-live-battle.ts';
import { DiffToggle } from '../../components/AnswerDiff/AnswerDiff.tsx';
import { diffAnswers } from '../../components/AnswerDiff/answer-diff.ts';
import { preloadMarkdown } from '../../components/Markdown/LazyMarkdown.tsx';
import { useDuetStore } from '../../state/store.ts';
import { toast } from '../../state/toasts.ts';
import NotFoundPage from '../NotFound/NotFoundPage.tsx';
import { toolForRoute } from '../tool-route.ts';
import { AnswerPane } from './AnswerPane.tsx';
import { apiErrorMessage, chosenModelsRefused, queuePlaceMessage, signUpWouldHelp } from './messages.ts';
import { usePacedText } from './paced-text.ts';
import { choosableModels } from './model-choice.ts';
import { ToolForm } from './ToolForm.tsx';
import { VoteBar } from './VoteBar.tsx';
import { VoteResult } from './VoteResult.tsx';
import './ToolPage.css';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

/** How long to wait for a battle's first snapshot before offering to start over. */
const STALL_MS = 15_000;

/** `/:contentTitle`: one tool's question form, the two live answers, the vote and the reveal. */
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
  const liveBattle = useDuetStore((s) => s.battle);
  const queuePlace = useDuetStore((s) => s.queuePlace);
  const setPromptResult = useDuetStore((s) => s.setPromptResult);
  const resetBattle = useDuetStore((s) => s.resetBattle);
  const answersRef = useRef<HTMLElement>(null);
  const [stalledId, setStalledId] = useState<string | null>(null);
  // The battle whose answers are shown in difference mode: a new battle starts with it off.
  const [diffId, setDiffId] = useState<string | null>(null);

  const created = promptResult.battle;
  const vote = promptResult.vote && created && promptResult.vote.battleId === created.battleId ? promptResult.vote : undefined;
  const snapshot = liveBattle && created && liveBattle.battleId === created.battleId ? liveBattle : null;
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
  useEffect(() => {
    if (snapshot?.voted && !vote) {
      forgetBattle(tool.slug);
      resetBattle();
    }
  }, [snapshot?.voted, vote, tool.slug, resetBattle]);

  // No snapshot for a long while (battle gone, gateway unreachable): offer to start over.
  useEffect(() => {
    if (!created || snapshot) return;
    const timer = setTimeout(() => setStalledId(created.battleId), STALL_MS);
    return () => clearTimeout(timer);
  }, [created, snapshot]);
  const stalled = !!created && !snapshot && stalledId === created.battleId;

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

  const cancel = useMutation({
    mutationFn: (battle: CreateBattleResponse) => duetApi.cancel(battle.battleId, battle.voteToken),
    onError: (err) => toast.error(apiErrorMessage(t, err)),
  });

  const finished = !!snapshot?.finished;
  // Both texts are complete; the vote opens once both are stored too (`finished`).
  const answered = !!snapshot && [snapshot.sides.a, snapshot.sides.b].every((s) => sideEnded(s) || s.state === 'saving');
  const running = !!created && !vote && !finished && !stalled;
  const streaming = running && !!snapshot && !answered;
  // The difference is offered once both texts are complete, and when there are two to compare.
  const textA = snapshot?.sides.a.text ?? '';
  const textB = snapshot?.sides.b.text ?? '';
  const diffable = answered && textA !== '' && textB !== '';
  const diffOn = diffable && diffId === created?.battleId;
  const diff = useMemo(() => (diffOn ? diffAnswers(textA, textB) : null), [diffOn, textA, textB]);
  // The question still waits for a worker: its place in line, while neither model has started.
  const inLine = queuePlace && !snapshot?.sides.a.text && !snapshot?.sides.b.text && snapshot?.sides.a.state === 'waiting' ? queuePlace : null;

  function startOver() {
    forgetBattle(tool.slug);
    resetBattle();
    create.reset();
    castVote.reset();
    cancel.reset();
    requestAnimationFrame(() => {
      const form = document.querySelector<HTMLElement>('.ask input:not([type=hidden]):not(:disabled), .ask textarea');
      form?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      form?.focus({ preventScroll: true });
    });
  }

  // The place in line is read out when it first shows, then at most every 30 s, not at each move.
  const inLineAnnounce = usePacedText(inLine ? queuePlaceMessage(t, inLine) : '', 30_000);
  const announce = vote ? t('battle.votedAnnounce') : finished ? t('battle.finishedAnnounce') : inLineAnnounce;

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
          busy={create.isPending || running}
          submitting={create.isPending}
          inLine={inLine !== null}
          serverError={create.isError ? apiErrorMessage(t, create.error, undefined, !!create.variables?.req.models) : null}
          offerSignUp={create.isError && signUpWouldHelp(create.error)}
          models={choosableModels(meta)}
          onSubmit={(req, image) => {
            castVote.reset();
            cancel.reset();
            create.mutate({ req, image });
          }}
        />
      </section>

      <p className="visually-hidden" aria-live="polite" data-testid="battle-announcer">
        {announce}
      </p>

      {created && (
        <section className="duet-battle" ref={answersRef} aria-labelledby="answers-heading" data-testid="battle">
          <div className="duet-battle__bar">
            <h2 id="answers-heading" className="tool-page__section-title">
              {t('battle.heading')}
            </h2>
            {streaming && (
              <button
                type="button"
                className="btn btn--stop"
                onClick={() => cancel.mutate(created)}
                disabled={cancel.isPending || cancel.isSuccess}
                data-testid="stop"
              >
                <span className="btn--stop__icon" aria-hidden="true" />
                {cancel.isPending || cancel.isSuccess ? t('battle.stopping') : t('battle.stop')}
              </button>
            )}
            {diffable && <DiffToggle on={diffOn} onChange={(on) => setDiffId(on ? created.battleId : null)} testId="diff-toggle" />}
          </div>

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

          <div className="duet-battle__panes">
            {(['a', 'b'] as const).map((side) => (
              <AnswerPane
                key={side}
                side={side}
                view={withVoteStats(snapshot?.sides[side] ?? null, vote?.sides[side].stats)}
                label={created.sides[side].label}
                revealed={vote?.sides[side].label}
                picked={vote?.winner === side}
                inLine={inLine !== null}
                diff={diff}
              />
            ))}
          </div>

          {answered && !vote && (
            <VoteBar
              onVote={(winner) => castVote.mutate({ battle: created, winner })}
              saving={!finished}
              pending={castVote.isPending ? (castVote.variables?.winner ?? null) : null}
              error={castVote.isError ? apiErrorMessage(t, castVote.error) : null}
            />
          )}
          {vote && <VoteResult vote={vote} voteToken={created.voteToken} historyHref={historyHref} onAskAgain={startOver} />}
        </section>
      )}
    </div>
  );
}

/** A side as shown: once voted on, with the figures the vote revealed (a blind battle kept them back). */
function withVoteStats(view: SideView | null, revealed: AnswerStats | null | undefined): SideView | null {
  return view && revealed ? { ...view, stats: revealed } : view;
}
