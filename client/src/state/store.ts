import type { BattleSnapshot, CreateBattleResponse, HistoryEntry, UserProfile, VoteResponse } from '@duet/shared';
import type { SideView } from '@duet/shared/live';
import { create } from 'zustand';

/** The signed-in visitor's profile: `data` of `GET /api/v2/user/profile` (empty when signed out). */
export interface Profile {
  user?: UserProfile;
}

/** What the current battle has produced: its creation answer, then the vote's answer. */
export interface PromptResult {
  battle?: CreateBattleResponse;
  vote?: VoteResponse;
}

/**
 * Client state as the specification lists it: profile, uploaded image, prompt result, both
 * result texts, both progress values, and the history list. "GPT" and "Claude" in the
 * specification are sides A and B here: which model is on which side stays hidden until the vote.
 */
export interface DuetState {
  profile: Profile;
  /** Object URL of the image picked for the current question ('' when none). */
  uploadedImage: string;
  promptResult: PromptResult;
  resultA: string;
  resultB: string;
  progressA: number;
  progressB: number;
  historyList: HistoryEntry[];
  /** The live battle as the socket reports it. */
  battle: BattleSnapshot | null;

  setProfile: (profile: Profile) => void;
  setUploadedImage: (url: string) => void;
  setPromptResult: (result: PromptResult) => void;
  setBattle: (battle: BattleSnapshot | null) => void;
  setHistoryList: (list: HistoryEntry[]) => void;
  resetBattle: () => void;
}

const sideFields = (a: SideView | undefined, b: SideView | undefined) => ({
  resultA: a?.text ?? '',
  resultB: b?.text ?? '',
  progressA: a?.progress ?? 0,
  progressB: b?.progress ?? 0,
});

export const useDuetStore = create<DuetState>()((set) => ({
  profile: {},
  uploadedImage: '',
  promptResult: {},
  resultA: '',
  resultB: '',
  progressA: 0,
  progressB: 0,
  historyList: [],
  battle: null,

  setProfile: (profile) => set({ profile }),
  setUploadedImage: (uploadedImage) =>
    set((s) => {
      if (s.uploadedImage && s.uploadedImage !== uploadedImage) URL.revokeObjectURL(s.uploadedImage);
      return { uploadedImage };
    }),
  setPromptResult: (promptResult) => set({ promptResult }),
  setBattle: (battle) => set({ battle, ...sideFields(battle?.sides.a, battle?.sides.b) }),
  setHistoryList: (historyList) => set({ historyList }),
  resetBattle: () => set({ battle: null, promptResult: {}, ...sideFields(undefined, undefined) }),
}));
