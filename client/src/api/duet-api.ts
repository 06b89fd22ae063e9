import type { CreateBattleRequest, CreateBattleResponse, Dedup, FollowUpRequest, FollowUpResponse, HistoryResponse, Leaderboard, LeaderboardCategory, LeaderboardControl, LeaderboardHistory, Meta, OwnBoard, RatingIntervalMethod, SpecHistoryResponse, VoteReasonsRequest, VoteReasonsResponse, VoteRequest, VoteResponse } from '@duet/contracts';
import { CHALLENGE_HEADER } from '@duet/contracts/schemas/challenge.schema';
import type { HistoryView, SharedBattleResponse } from '@duet/contracts/schemas/history.schema';
import { ZVoteReasonsResponseSchema } from '@duet/contracts/schemas/vote-reason.schema';
import { createBattleBody, followUpBody } from './create-battle-body.ts';
import { api, postJson } from './http.ts';

/** Asking and voting work signed in or not: a stale session falls back to anonymous. */
const ANYONE = { anonymousFallback: true };

/** Which leaderboard: overall, a tool's or a category's (not both), plain or style-controlled. */
export interface BoardQuery {
  tool?: string | null;
  category?: LeaderboardCategory | null;
  control?: LeaderboardControl;
  /** Which 95% intervals; default the gateway's. */
  intervals?: RatingIntervalMethod | null;
  /** `off`: the plain board counting the votes over the prompt cap too; default the de-duplicated one. */
  dedup?: Dedup | null;
}

function boardQuery(b: BoardQuery): string {
  const q = new URLSearchParams();
  if (b.tool) q.set('tool', b.tool);
  if (b.category) q.set('category', b.category);
  if (b.control && b.control !== 'none') q.set('control', b.control);
  if (b.intervals) q.set('intervals', b.intervals);
  if (b.dedup === 'off') q.set('dedup', b.dedup);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The REST calls of Duet, typed by the shared contracts. */
export const duetApi = {
  meta: () => api<Meta>('/api/meta'),

  /** JSON without an image; multipart with one. */
  /** `challenge`: a solved challenge (`challenge.ts`), when the deployment asks for one. */
  createBattle: (req: CreateBattleRequest, image?: File | null, challenge?: string): Promise<CreateBattleResponse> =>
    api('/api/battles', { method: 'POST', body: createBattleBody(req, image), headers: challenge ? { [CHALLENGE_HEADER]: challenge } : {} }, ANYONE),

  /** A follow-up question on battle `battleId` (its first turn's id): JSON, or multipart with an image. */
  followUp: (battleId: string, req: FollowUpRequest, image?: File | null): Promise<FollowUpResponse> =>
    api(`/api/battles/${encodeURIComponent(battleId)}/turns`, { method: 'POST', body: followUpBody(req, image) }, ANYONE),

  vote: (battleId: string, body: VoteRequest) => postJson<VoteResponse>(`/api/battles/${battleId}/vote`, body, ANYONE),

  /** Why the visitor voted as they did: added once, by the vote token's holder, just after the vote. */
  addReasons: async (battleId: string, body: VoteReasonsRequest): Promise<VoteReasonsResponse> =>
    ZVoteReasonsResponseSchema.parse(await postJson(`/api/battles/${battleId}/reasons`, body, ANYONE)),

  cancel: (battleId: string, voteToken: string) => postJson<{ cancelled: true }>(`/api/battles/${battleId}/cancel`, { voteToken }),

  /** One page of a tool's history: its blind battles (`main`), or those whose models were chosen. */
  history: (tool: string, cursor?: string | null, view: HistoryView = 'main') => {
    const q = new URLSearchParams();
    if (cursor) q.set('cursor', cursor);
    if (view !== 'main') q.set('view', view);
    const s = q.toString();
    return api<HistoryResponse>(`/api/tools/${encodeURIComponent(tool)}/history${s ? `?${s}` : ''}`);
  },

  /** Bradley-Terry ratings with 95% intervals: overall, or for one tool. */
  leaderboard: (board: BoardQuery = {}) => api<Leaderboard>('/api/leaderboard' + boardQuery(board)),

  /** The board's daily snapshots, oldest first. */
  leaderboardHistory: (board: BoardQuery = {}) => api<LeaderboardHistory>('/api/leaderboard/history' + boardQuery(board)),

  /** The signed-in visitor's own board next to the crowd's (401 when not signed in). */
  ownBoard: () => api<OwnBoard>('/api/leaderboard/mine'),

  /** A voted battle's public page (`/b/:id`), as history shows it. */
  sharedBattle: (id: string) => api<SharedBattleResponse>(`/api/battles/${encodeURIComponent(id)}/shared`),

  /** The specification's history call. */
  specList: (id: string) => api<SpecHistoryResponse>(`/api/v2/user/duet/list/${encodeURIComponent(id)}`),
};
