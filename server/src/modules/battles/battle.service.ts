import { randomUUID } from 'node:crypto';
import { BLIND_LABELS, checkToolFields, findTool, SIDES } from '@duet/contracts';
import { costMicroUsd, inputTokensAtMost, pricesOf } from '@duet/contracts/cost';
import { drawPair } from '@duet/platform/roster-settings';
import type {
  BattleMode,
  BattleSnapshot,
  CreateBattleRequest,
  CreateBattleResponse,
  FollowUpRequest,
  FollowUpResponse,
  ImageMimeType,
  ModelSpec,
  Side,
  ToolDefinition,
  VoteReasonsRequest,
  VoteReasonsResponse,
  VoteRequest,
  VoteResponse,
} from '@duet/contracts';
import type { DuetBus } from '../../events/duet-events.ts';
import type { Db, DbClient } from '../../infra/db.ts';
import { withTransaction } from '../../infra/db.ts';
import { AppError, validationError } from '../../http/errors.ts';
import type { StatsService } from '../stats/stats.service.ts';
import type { BudgetService } from '../budget/budget.service.ts';
import type { ChallengeService } from '../challenge/challenge.service.ts';
import type { ModelHealthService } from '../model-health/model-health.service.ts';
import type { QuotaService } from '../quota/quota.service.ts';
import type { Admission } from './admission.ts';
import type { BattleSignals } from './battle-signals.ts';
import type { ImageCleaner } from './image-cleaner.ts';
import { foldSnapshot } from './battle-snapshot.ts';
import * as repo from './battle.repo.ts';
import { hashVoteToken, newVoteToken, voteTokenMatches } from './vote-token.ts';
import type { Voter } from './voter-key.ts';

/**
 * Who asks a battle: the signed-in user, if any; the client's address; the device its cookie names,
 * if it came with one; the solved challenge it sent (`X-Duet-Challenge`), if any.
 */
export interface Asker {
  userId?: string | undefined;
  ip: string;
  deviceId?: string | undefined;
  challenge?: string | undefined;
}

/** An upload as it arrived, its type judged by its bytes; cleaned before anything keeps it. */
export interface UploadedImage {
  mimeType: ImageMimeType;
  data: Buffer;
}

export interface BattleServiceDeps {
  db: Db;
  mode: BattleMode;
  /** Puts a stored battle on the queue. */
  enqueue: (battleId: string) => Promise<void>;
  /** Whether the queue can take another battle now; when it cannot, about how long until it can (`admission.ts`). */
  admission: Admission;
  /** Each asker's questions a day. */
  quota: Pick<QuotaService, 'take'>;
  /** Checks the proof-of-work a battle carries (each solution once); null when challenges are off. */
  challenge: Pick<ChallengeService, 'verify'> | null;
  /** Draws the pair and reserves its worst case in the budgets, or says when they have room again. */
  budget: Pick<BudgetService, 'admit' | 'release'>;
  /** The models a battle may be drawn from: failing ones are left out (the models' breaker). */
  health: Pick<ModelHealthService, 'drawPool' | 'drawable'>;
  /** Turns an upload into what is stored, shown and sent to the models (no metadata, oriented, capped). */
  cleanImage: ImageCleaner;
  /** The live link to workers: cancel, and the battle's stream so far. */
  signals: BattleSignals;
  stats: StatsService;
  /** The daily cap's key of a voter (the account, or a keyed hash of the IP). */
  voterKey: (voter: Voter) => Promise<string>;
  /** Votes per voter per day that count (0: no cap). */
  dailyVoteCap: number;
  /** The most turns a battle may have (`MAX_TURNS`). */
  maxTurns: number;
  /** Where the service says what happened: `battle.created`, `battle.cancelled`, `vote.recorded`, `vote.counted`. */
  events: DuetBus;
  random?: () => number;
}

export type BattleService = ReturnType<typeof createBattleService>;

export type { Voter } from './voter-key.ts';

export function createBattleService(deps: BattleServiceDeps) {
  const random = deps.random ?? Math.random;

  /**
   * Validates, stores and enqueues a battle for `asker` (as the signed-in user's when there is one).
   * In order, each refusal costing less than the next: the question, the challenge, the asker's
   * daily quota, the queue's depth, the image's cleaning, the models that answer, the budgets (which draw the pair). Nothing
   * is left behind when any step fails: no row, no job, no reservation, no place taken in the quota.
   */
  async function create(req: CreateBattleRequest, image: UploadedImage | undefined, asker: Asker): Promise<CreateBattleResponse> {
    const tool = findTool(req.tool);
    if (!tool) throw new AppError(404, 'unknown_tool', `There is no tool called "${req.tool}"`);
    const issues = checkToolFields(tool, req);
    if (issues.length) throw validationError(issues);
    if (tool.image === 'required' && !image) throw new AppError(400, 'image_required', 'This tool needs an image');
    if (tool.image === 'none' && image) throw new AppError(400, 'image_not_allowed', 'This tool does not take an image');
    const chosen = req.models && chosenModels(req.models);
    await deps.challenge?.verify(asker.challenge);
    return withQuota(asker, () => store(tool, req, image, asker.userId, chosen));
  }

  /** Runs `ask` on one question of the asker's daily quota (429 past it), given back when `ask` fails. */
  async function withQuota<T>(asker: Asker, ask: () => Promise<T>): Promise<T> {
    const quota = await deps.quota.take({ userId: asker.userId, addressKey: await deps.voterKey({ ip: asker.ip }), deviceId: asker.deviceId });
    if (!quota.ok) {
      const more = quota.signedInLimit !== null && quota.signedInLimit > quota.limit ? ` Sign up to ask ${quota.signedInLimit} a day.` : '';
      throw new AppError(429, 'quota_exceeded', `You have asked today's ${quota.limit} questions.${more}`, undefined, quota.retryAfterSeconds, {
        limit: quota.limit,
        signedInLimit: quota.signedInLimit,
      });
    }
    try {
      return await ask();
    } catch (err) {
      await quota.give().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Asks a follow-up on a battle whose last turn has ended and that has no vote yet, up to
   * `maxTurns` turns: a turn of its own (same models, sides, mode, asker and vote token), queued
   * and run like a battle, each model given the whole conversation with its own earlier answers.
   * Quotas and budgets count it as a question of its own. Nothing is left behind when it is refused.
   */
  async function followUp(battleId: string, req: FollowUpRequest, image: UploadedImage | undefined, asker: Asker): Promise<FollowUpResponse> {
    const conversation = await repo.findConversation(deps.db, battleId);
    if (!conversation || conversation.battle.hidden) throw notFound();
    const { battle, turns } = conversation;
    authorised(battle, req.voteToken);
    if (conversation.voted) throw alreadyVoted();
    const last = turns.at(-1);
    if (battle.turns !== turns.length || !last || SIDES.some((side) => last.answers[side] === undefined)) {
      throw new AppError(409, 'battle_not_finished', 'Both answers must finish before you ask again');
    }
    if (turns.length >= deps.maxTurns) throw new AppError(409, 'turn_limit', `A battle has at most ${deps.maxTurns} questions: time to vote`);
    const tool = findTool(battle.tool);
    if (!tool) throw new Error(`battle ${battleId}: unknown tool ${battle.tool}`);
    if (tool.image === 'none' && image) throw new AppError(400, 'image_not_allowed', 'This tool does not take an image');
    return withQuota(asker, async () => {
      const admission = await deps.admission();
      if (!admission.open) throw busy(admission.retryAfterSeconds);
      const cleaned = image && (await deps.cleanImage(image.data, image.mimeType));
      const id = randomUUID();
      // The worst case: the whole conversation so far, both answers of each turn, and the new question.
      const first = tool.prompt({ inputs: battle.inputs, text: battle.text, hasImage: battle.hasImage, lang: battle.lang });
      const texts = [first.system, first.user, ...turns.slice(1).map((t) => t.text), ...turns.flatMap((t) => SIDES.map((s) => t.answers[s] ?? '')), req.text];
      const inputAtMost = inputTokensAtMost(texts, battle.hasImage || cleaned !== undefined);
      const drawable = await deps.health.drawPool();
      const models = SIDES.map((side) => drawable.pool.find((m) => m.id === battle.sides[side].model));
      if (!models[0] || !models[1]) {
        throw new AppError(503, 'models_unavailable', 'One of the two models is not answering right now. Please try again in a minute.', undefined, drawable.retryAfterSeconds);
      }
      const admitted = await deps.budget.admit({
        battleId: id,
        candidates: models as ModelSpec[],
        worstCaseMicroUsd: (m) => costMicroUsd(pricesOf(m), inputAtMost, tool.maxTokens),
        draw: (pool) => [pool[0]!, pool[1]!],
      });
      if (!admitted.ok) throw budgetSpent(admitted.retryAfterSeconds);
      const turn = turns.length + 1;
      let stored: Awaited<ReturnType<typeof repo.insertFollowUp>>;
      try {
        stored = await repo.insertFollowUp(deps.db, { id, rootId: battleId, turn, text: req.text, image: cleaned, budgetDay: admitted.day });
      } catch (err) {
        await releaseQuietly(admitted.day, id);
        throw err;
      }
      if (stored !== 'stored') {
        await releaseQuietly(admitted.day, id);
        throw stored === 'already_voted' ? alreadyVoted() : new AppError(409, 'battle_not_finished', 'Another question of this battle is on its way');
      }
      await enqueueOrTakeBack(id, admitted.day);
      deps.events.emit('battle.created', { battleId: id, tool: tool.slug, models: { a: battle.sides.a.model, b: battle.sides.b.model } });
      return { battleId, turn: { number: turn, battleId: id } };
    });
  }

  /** Queues a stored battle or turn; without a job it would never run, so a failure takes it back. */
  async function enqueueOrTakeBack(id: string, budgetDay: string): Promise<void> {
    try {
      await deps.enqueue(id);
    } catch (err) {
      // An outage, or Redis full, is a 503; the visitor never sees Redis's own words.
      await repo.deleteBattle(deps.db, id);
      await releaseQuietly(budgetDay, id);
      throw err;
    }
  }

  /** The roster's models a visitor chose, or a 400 naming each that cannot be chosen now. */
  function chosenModels(ids: readonly [string, string]): [ModelSpec, ModelSpec] {
    const roster = deps.health.drawable();
    const found = ids.map((id) => roster.find((m) => m.id === id));
    const issues = ids.flatMap((id, i) => (found[i] ? [] : [{ path: `models.${i}`, message: `${id} is not a model of the roster one can choose now` }]));
    if (issues.length) throw validationError(issues);
    return found as [ModelSpec, ModelSpec];
  }

  /** The rest of `create`, past the question and the quota. */
  async function store(
    tool: ToolDefinition,
    req: CreateBattleRequest,
    image: UploadedImage | undefined,
    userId: string | undefined,
    chosen: [ModelSpec, ModelSpec] | undefined,
  ): Promise<CreateBattleResponse> {
    const admission = await deps.admission();
    if (!admission.open) throw busy(admission.retryAfterSeconds);
    // The costliest checks last: a refused question costs no decoding.
    const cleaned = image && (await deps.cleanImage(image.data, image.mimeType));

    const id = randomUUID();
    // Each side's worst case: its model's prices, the question's input at most, the tool's token cap.
    const prompt = tool.prompt({ inputs: req.inputs, text: req.text, hasImage: cleaned !== undefined, lang: req.lang });
    const inputAtMost = inputTokensAtMost([prompt.system, prompt.user], cleaned !== undefined);
    const drawable = await deps.health.drawPool();
    // Chosen models must both be answering (their breakers closed); drawn ones come from those that are.
    const candidates = chosen ? chosen.filter((c) => drawable.pool.some((m) => m.id === c.id)) : drawable.pool;
    if (candidates.length < 2) {
      const which = chosen ? 'One of the models you chose is not answering right now.' : 'Too few models are answering right now.';
      throw new AppError(503, 'models_unavailable', `${which} Please try again in a minute.`, undefined, drawable.retryAfterSeconds);
    }
    const { probe } = drawable;
    const admitted = await deps.budget.admit({
      battleId: id,
      candidates,
      worstCaseMicroUsd: (m) => costMicroUsd(pricesOf(m), inputAtMost, tool.maxTokens),
      // Chosen models as chosen. A model back from its cool-down is in a drawn pair: this battle is its probe.
      draw: (pool) => (chosen ? [pool[0]!, pool[1]!] : drawPair(pool, random, probe && pool.includes(probe) ? probe : undefined)),
    });
    if (!admitted.ok) throw budgetSpent(admitted.retryAfterSeconds);
    const [first, second] = admitted.pair;
    const sides: Record<Side, ModelSpec> = chosen || random() < 0.5 ? { a: first, b: second } : { a: second, b: first };
    const mode: BattleMode = chosen ? 'named' : deps.mode;
    const voteToken = newVoteToken();
    try {
      await repo.insertBattle(deps.db, {
        id,
        tool: tool.slug,
        lang: req.lang,
        text: req.text,
        inputs: req.inputs,
        sides,
        mode,
        voteTokenHash: hashVoteToken(voteToken),
        image: cleaned,
        userId: userId ?? null,
        budgetDay: admitted.day,
      });
    } catch (err) {
      await releaseQuietly(admitted.day, id);
      throw err;
    }
    await enqueueOrTakeBack(id, admitted.day);
    deps.events.emit('battle.created', { battleId: id, tool: tool.slug, models: { a: sides.a.id, b: sides.b.id } });
    return { battleId: id, voteToken, sides: labelsFor(sides, mode) };
  }


  /**
   * Records the one vote of a battle; the vote token alone decides who may vote. Every vote is
   * kept; it counts toward win rates and ratings only if the battle was blind, both sides
   * finished, neither answer names a model, and the voter is within the daily cap. Counted votes
   * bump both models' counters in the same transaction.
   *
   * One round trip (`vote_on_battle()`): the battle's facts are read where the vote is stored. A
   * battle whose answers were stored without knowing whether they name a model takes three more,
   * once (read the unflagged answers, flag them, vote again).
   */
  /** A reservation left by a battle that was not stored: the sweeper gives it back if Redis cannot now. */
  async function releaseQuietly(day: string, battleId: string): Promise<void> {
    await deps.budget.release(day, battleId).catch(() => undefined);
  }

  async function vote(battleId: string, body: VoteRequest, voter: Voter): Promise<VoteResponse> {
    // The hashing key of anonymous voters is made once for the whole service, at its first vote.
    const voterKey = await deps.voterKey(voter);
    const cast: repo.NewVote = {
      battleId,
      tokenHash: hashVoteToken(body.voteToken),
      winner: body.winner,
      userId: voter.userId ?? null,
      voterKey,
      dailyCap: deps.dailyVoteCap,
      deltas: deps.stats.deltas(body.winner),
    };
    const reasons = body.reasons ?? [];
    const castOn = async (db: Db | DbClient) => {
      let stored = await repo.voteOnBattle(db, cast);
      if (stored.outcome === 'unchecked') {
        await repo.flagModelNames(db, battleId);
        stored = await repo.voteOnBattle(db, cast);
      }
      if (stored.outcome === 'stored' && reasons.length > 0) {
        const added = await repo.addVoteReasons(db, battleId, cast.tokenHash, reasons);
        if (added !== 'stored') throw new Error(`battle ${battleId}: the reasons given with its vote were not stored (${added})`);
      }
      return stored;
    };
    // Reasons given with the vote are stored with it, in one transaction, or not at all.
    const stored = reasons.length > 0 ? await withTransaction(deps.db, castOn) : await castOn(deps.db);
    switch (stored.outcome) {
      case 'not_found':
        throw notFound();
      case 'invalid_vote_token':
        throw invalidToken();
      case 'already_voted':
        throw alreadyVoted();
      case 'battle_not_finished':
        throw new AppError(409, 'battle_not_finished', 'Both answers must finish before you vote');
      case 'unchecked':
        throw new Error(`battle ${battleId}: answers still unchecked for model names after flagging them`);
    }
    const { tool } = stored;
    deps.events.emit('vote.recorded', { battleId, tool, winner: body.winner, counted: stored.counted, reason: stored.uncountedReason });
    if (stored.counted) deps.events.emit('vote.counted', { battleId, tool });
    const winRates = deps.stats.winRatesOf(stored.counters);
    const revealed = (side: Side) => ({ ...stored.sides[side], stats: stored.stats[side] ?? null });
    return { battleId, winner: body.winner, sides: { a: revealed('a'), b: revealed('b') }, winRates, reasons };
  }

  /** Adds the reasons of a vote cast just before (within `VOTE_REASONS_WINDOW_SECONDS`), once. */
  async function addReasons(battleId: string, body: VoteReasonsRequest): Promise<VoteReasonsResponse> {
    const outcome = await repo.addVoteReasons(deps.db, battleId, hashVoteToken(body.voteToken), body.reasons);
    switch (outcome) {
      case 'not_found':
        throw notFound();
      case 'invalid_vote_token':
        throw invalidToken();
      case 'not_voted':
        throw new AppError(409, 'not_voted', 'Vote first: reasons go with a vote');
      case 'reasons_given':
        throw new AppError(409, 'reasons_given', 'This vote has its reasons already');
      case 'too_late':
        throw new AppError(409, 'too_late', 'Reasons can be added within an hour of the vote');
      case 'not_fitting':
        throw validationError([{ path: 'reasons', message: 'a reason for picking an answer does not fit "both bad"' }]);
    }
    return { battleId, reasons: body.reasons };
  }

  async function cancel(battleId: string, voteToken: string): Promise<void> {
    authorised(await repo.findBattle(deps.db, battleId), voteToken);
    await deps.signals.requestCancel(battleId);
    deps.events.emit('battle.cancelled', { battleId });
  }

  /**
   * Everything a viewer needs to draw the battle, or one turn of it, now (`battle:join`): its live
   * stream folded up, stored answers, whether the battle has its vote, and for a first turn the
   * follow-ups asked since. Null for no battle, or a hidden one.
   */
  async function snapshot(battleId: string): Promise<BattleSnapshot | null> {
    const battle = await repo.findBattle(deps.db, battleId);
    if (!battle || battle.hidden) return null;
    const [events, answers, voted, followUps] = await Promise.all([
      deps.signals.liveEvents(battleId),
      repo.findAnswers(deps.db, battleId),
      repo.hasVote(deps.db, battle.rootId ?? battleId),
      battle.rootId ? Promise.resolve([]) : repo.findFollowUps(deps.db, battleId),
    ]);
    const listed = followUps.map((f) => ({ turn: f.turn, battleId: f.battleId, text: f.text, imageUrl: f.hasImage ? `/api/battles/${f.battleId}/image` : null }));
    return foldSnapshot(battle, events, answers, voted, listed);
  }

  return {
    create,
    followUp,
    vote,
    addReasons,
    cancel,
    snapshot,
    image: (battleId: string) => repo.findImage(deps.db, battleId),
  };
}

/** The battle, if it exists and the token is its vote token. */
function authorised(battle: repo.BattleRow | null, voteToken: string): repo.BattleRow {
  if (!battle) throw notFound();
  if (!voteTokenMatches(voteToken, battle.voteTokenHash)) throw invalidToken();
  return battle;
}

const notFound = () => new AppError(404, 'not_found', 'No such battle');
const invalidToken = () => new AppError(403, 'invalid_vote_token', 'This vote token does not belong to this battle');

const alreadyVoted = () => new AppError(409, 'already_voted', 'This battle has a vote already');
const busy = (retryAfterSeconds: number) =>
  new AppError(503, 'busy', 'So many questions are waiting that yours would wait too long. Please try again soon.', undefined, retryAfterSeconds);
const budgetSpent = (retryAfterSeconds: number | undefined) =>
  new AppError(503, 'budget_exhausted', "Today's budget for questions is spent. Please come back when the day turns.", undefined, retryAfterSeconds);

function labelsFor(sides: Record<Side, { label: string }>, mode: BattleMode): Record<Side, { label: string }> {
  return mode === 'blind'
    ? { a: { label: BLIND_LABELS.a }, b: { label: BLIND_LABELS.b } }
    : { a: { label: sides.a.label }, b: { label: sides.b.label } };
}
