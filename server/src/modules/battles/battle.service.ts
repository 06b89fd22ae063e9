import { randomUUID } from 'node:crypto';
import { checkToolFields, drawPair, findTool } from '@duet/shared';
import type {
  CreateBattleRequest,
  CreateBattleResponse,
  ImageMimeType,
  ModelSpec,
  Side,
  VoteRequest,
  VoteResponse,
  Winner,
  WinRate,
} from '@duet/shared';
import type { Db } from '../../infra/db.ts';
import { withTransaction } from '../../infra/db.ts';
import { AppError, validationError } from '../../http/errors.ts';
import * as repo from './battle.repo.ts';
import type { StatsDelta } from './battle.repo.ts';
import { voteCountability } from './vote-rules.ts';
import { hashVoteToken, newVoteToken, voteTokenMatches } from './vote-token.ts';

export interface UploadedImage {
  mimeType: ImageMimeType;
  data: Buffer;
}

export interface BattleServiceDeps {
  db: Db;
  roster: readonly ModelSpec[];
  mode: 'blind' | 'named';
  /** Puts a stored battle on the queue. */
  enqueue: (battleId: string) => Promise<void>;
  /** Tells the worker running a battle to stop it. */
  requestCancel: (battleId: string) => Promise<void>;
  /** Votes per voter per day that count (0: no cap). */
  dailyVoteCap: number;
  /** Keyed hash of a client IP: the daily cap never stores the address itself. */
  hashIp: (ip: string) => Promise<string>;
  /** Announces new win rates to everyone watching a tool (after a counted vote). */
  statsChanged: (tool: string, winRates: WinRate[]) => void;
  random?: () => number;
}

export type BattleService = ReturnType<typeof createBattleService>;

/** Who votes: the signed-in user, if any, and the client's address. */
export interface Voter {
  userId?: string | undefined;
  ip: string;
}

const BLIND_LABELS: Record<Side, string> = { a: 'Model A', b: 'Model B' };

export function createBattleService(deps: BattleServiceDeps) {
  const random = deps.random ?? Math.random;

  /**
   * Validates, stores and enqueues a battle, as `userId`'s when signed in. Nothing is left
   * behind when any step fails.
   */
  async function create(req: CreateBattleRequest, image: UploadedImage | undefined, userId?: string): Promise<CreateBattleResponse> {
    const tool = findTool(req.tool);
    if (!tool) throw new AppError(404, 'unknown_tool', `There is no tool called "${req.tool}"`);
    const issues = checkToolFields(tool, req);
    if (issues.length) throw validationError(issues);
    if (tool.image === 'required' && !image) throw new AppError(400, 'image_required', 'This tool needs an image');
    if (tool.image === 'none' && image) throw new AppError(400, 'image_not_allowed', 'This tool does not take an image');

    const [first, second] = drawPair(deps.roster, random);
    const sides: Record<Side, ModelSpec> = random() < 0.5 ? { a: first, b: second } : { a: second, b: first };
    const id = randomUUID();
    const voteToken = newVoteToken();
    await withTransaction(deps.db, (client) =>
      repo.insertBattle(client, {
        id,
        tool: tool.slug,
        lang: req.lang,
        text: req.text,
        inputs: req.inputs,
        sides,
        mode: deps.mode,
        voteTokenHash: hashVoteToken(voteToken),
        image,
        userId: userId ?? null,
      }),
    );
    try {
      await deps.enqueue(id);
    } catch (err) {
      // Without a job the battle would never run: take it back and report.
      await repo.deleteBattle(deps.db, id);
      throw new AppError(503, 'unavailable', `Could not start the battle: ${(err as Error).message}`);
    }
    return { battleId: id, voteToken, sides: labelsFor(sides, deps.mode) };
  }

  /**
   * Records the one vote of a battle; the vote token alone decides who may vote. Every vote is
   * kept; it counts toward win rates and ratings only if the battle was blind, both sides
   * finished, neither answer names a model, and the voter is within the daily cap. Counted votes
   * bump both models' counters in the same transaction.
   */
  async function vote(battleId: string, body: VoteRequest, voter: Voter): Promise<VoteResponse> {
    const voterKey = voter.userId ? `user:${voter.userId}` : `ip:${await deps.hashIp(voter.ip)}`;
    const result = await withTransaction(deps.db, async (client) => {
      const battle = authorised(await repo.findBattle(client, battleId, true), body.voteToken);
      if (await repo.hasVote(client, battleId)) throw new AppError(409, 'already_voted', 'This battle has a vote already');
      const answers = await repo.findAnswers(client, battleId);
      if (answers.length < 2) throw new AppError(409, 'battle_not_finished', 'Both answers must finish before you vote');
      const votesToday = await repo.lockAndCountVotesToday(client, voterKey);
      const rule = voteCountability({ mode: battle.mode, answers, votesToday, dailyCap: deps.dailyVoteCap });
      const inserted = await repo.insertVote(client, {
        battleId,
        tool: battle.tool,
        winner: body.winner,
        userId: voter.userId ?? null,
        voterKey,
        counted: rule.counted,
        uncountedReason: rule.reason,
      });
      if (!inserted) throw new AppError(409, 'already_voted', 'This battle has a vote already');
      if (rule.counted) {
        for (const side of ['a', 'b'] as const) {
          await repo.bumpModelStats(client, battle.tool, statsDelta(battle, side, body.winner));
        }
      }
      return { battle, counted: rule.counted };
    });
    const winRates = await repo.listWinRates(deps.db, result.battle.tool);
    if (result.counted) deps.statsChanged(result.battle.tool, winRates);
    return { battleId, winner: body.winner, sides: result.battle.sides, winRates };
  }

  async function cancel(battleId: string, voteToken: string): Promise<void> {
    authorised(await repo.findBattle(deps.db, battleId), voteToken);
    await deps.requestCancel(battleId);
  }

  /** Side labels as viewers see them before the vote. */
  async function labels(battleId: string): Promise<{ tool: string; labels: Record<Side, string> } | null> {
    const battle = await repo.findBattle(deps.db, battleId);
    if (!battle) return null;
    const l = labelsFor(
      { a: { label: battle.sides.a.label }, b: { label: battle.sides.b.label } },
      battle.mode,
    );
    return { tool: battle.tool, labels: { a: l.a.label, b: l.b.label } };
  }

  return {
    create,
    vote,
    cancel,
    labels,
    image: (battleId: string) => repo.findImage(deps.db, battleId),
    winRates: (tool: string) => repo.listWinRates(deps.db, tool),
  };
}

/** The battle, if it exists and the token is its vote token. */
function authorised(battle: repo.BattleRow | null, voteToken: string): repo.BattleRow {
  if (!battle) throw new AppError(404, 'not_found', 'No such battle');
  if (!voteTokenMatches(voteToken, battle.voteTokenHash)) {
    throw new AppError(403, 'invalid_vote_token', 'This vote token does not belong to this battle');
  }
  return battle;
}

function labelsFor(sides: Record<Side, { label: string }>, mode: 'blind' | 'named'): Record<Side, { label: string }> {
  return mode === 'blind'
    ? { a: { label: BLIND_LABELS.a }, b: { label: BLIND_LABELS.b } }
    : { a: { label: sides.a.label }, b: { label: sides.b.label } };
}

function statsDelta(battle: repo.BattleRow, side: Side, winner: Winner): StatsDelta {
  const s = battle.sides[side];
  return {
    model: s.model,
    label: s.label,
    family: s.family,
    wins: winner === side ? 1 : 0,
    losses: winner === 'a' || winner === 'b' ? (winner === side ? 0 : 1) : 0,
    ties: winner === 'tie' ? 1 : 0,
    bothBad: winner === 'both_bad' ? 1 : 0,
  };
}
