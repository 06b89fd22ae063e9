import type {
  CreateBattleRequest,
  CreateBattleResponse,
  HistoryResponse,
  Leaderboard,
  Meta,
  SpecHistoryResponse,
  VoteRequest,
  VoteResponse,
} from '@duet/shared';
import { createBattleBody } from './create-battle-body.ts';
import { api, postJson } from './http.ts';

/** Asking and voting work signed in or not: a stale session falls back to anonymous. */
const ANYONE = { anonymousFallback: true };

/** The REST calls of Duet, typed by the shared contracts. */
export const duetApi = {
  meta: () => api<Meta>('/api/meta'),

  /** JSON without an image; multipart with one. */
  createBattle: (req: CreateBattleRequest, image?: File | null): Promise<CreateBattleResponse> =>
    api('/api/battles', { method: 'POST', body: createBattleBody(req, image) }, ANYONE),

  vote: (battleId: string, body: VoteRequest) => postJson<VoteResponse>(`/api/battles/${battleId}/vote`, body, ANYONE),

  cancel: (battleId: string, voteToken: string) => postJson<{ cancelled: true }>(`/api/battles/${battleId}/cancel`, { voteToken }),

  history: (tool: string, cursor?: string | null) =>
    api<HistoryResponse>(`/api/tools/${encodeURIComponent(tool)}/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`),

  /** Bradley-Terry ratings with 95% intervals: overall, or for one tool. */
  leaderboard: (tool?: string) => api<Leaderboard>('/api/leaderboard' + (tool ? '?tool=' + encodeURIComponent(tool) : '')),

  /** The specification's history call. */
  specList: (id: string) => api<SpecHistoryResponse>(`/api/v2/user/duet/list/${encodeURIComponent(id)}`),
};
