import type { CreateBattleResponse, ProfileResponse, VoteResponse } from '@duet/contracts';
import type { BattleSnapshot } from '@duet/contracts/live';
import type { QueuePlace } from '@duet/contracts/socket-events';
import { create } from 'zustand';

/** The signed-in visitor's profile: `data` of `GET /api/v2/user/profile` (empty when signed out). */
export type Profile = Partial<ProfileResponse['data']>;

/** What the current battle has produced: its creation answer, then the vote's answer. */
export interface PromptResult {
  battle?: CreateBattleResponse;
  vote?: VoteResponse;
}

/**
 * Client state as the specification lists it, kept once: profile, uploaded image, prompt result,
 * and the live battle. The specification's other names are derived, never stored twice: both
 * result texts and progress values by the selectors below, from `battle` ("GPT" and "Claude"
 * there are sides A and B here: which model is on which side stays hidden until the vote), and
 * the history list from the query cache (`cachedHistoryList` in `api/history-query.ts`).
 */
export interface DuetState {
  profile: Profile;
  /** Object URL of the image picked for the current question ('' when none). */
  uploadedImage: string;
  promptResult: PromptResult;
  /** The live battle as the socket reports it. */
  battle: BattleSnapshot | null;
  /** The battle's place in the queue while it waits for a worker (null once it starts, or unknown). */
  queuePlace: QueuePlace | null;

  setProfile: (profile: Profile) => void;
  setUploadedImage: (url: string) => void;
  setPromptResult: (result: PromptResult) => void;
  setBattle: (battle: BattleSnapshot | null) => void;
  setQueuePlace: (place: QueuePlace | null) => void;
  resetBattle: () => void;
}

export const useDuetStore = create<DuetState>()((set) => ({
  profile: {},
  uploadedImage: '',
  promptResult: {},
  battle: null,
  queuePlace: null,

  setProfile: (profile) => set({ profile }),
  setUploadedImage: (uploadedImage) =>
    set((s) => {
      if (s.uploadedImage && s.uploadedImage !== uploadedImage) URL.revokeObjectURL(s.uploadedImage);
      return { uploadedImage };
    }),
  setPromptResult: (promptResult) => set({ promptResult }),
  setBattle: (battle) => set({ battle }),
  setQueuePlace: (queuePlace) => set({ queuePlace }),
  resetBattle: () => set({ battle: null, queuePlace: null, promptResult: {} }),
}));

/** The specification's "GPT result text": side A's text so far ('' with no battle). */
export const selectResultA = (s: DuetState): string => s.battle?.sides.a.text ?? '';
/** The specification's "Claude 3 result text": side B's text so far. */
export const selectResultB = (s: DuetState): string => s.battle?.sides.b.text ?? '';
/** The specification's first progress value: side A's, 0 to 100 (0 with no battle). */
export const selectProgressA = (s: DuetState): number => s.battle?.sides.a.progress ?? 0;
/** The specification's second progress value: side B's. */
export const selectProgressB = (s: DuetState): number => s.battle?.sides.b.progress ?? 0;
