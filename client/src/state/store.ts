import type { CreateBattleResponse, ProfileResponse, VoteResponse } from '@duet/contracts';
import type { BattleSnapshot, FollowUpView } from '@duet/contracts/live';
import type { QueuePlace } from '@duet/contracts/socket-events';
import { create } from 'zustand';
import type { Conversation } from './conversation.ts';
import { addTurn, currentTurn, startConversation, withSnapshot } from './conversation.ts';

/** The signed-in visitor's profile: `data` of `GET /api/v2/user/profile` (empty when signed out). */
export type Profile = Partial<ProfileResponse['data']>;

/** What the current battle has produced: its creation answer, then the vote's answer. */
export interface PromptResult {
  battle?: CreateBattleResponse;
  vote?: VoteResponse;
}

/**
 * Client state as the specification lists it, kept once: profile, uploaded image, prompt result,
 * and the live battle, a conversation of turns. The specification's other names are derived, never
 * stored twice: both result texts and progress values by the selectors below, from the current
 * turn ("GPT" and "Claude" there are sides A and B here: which model is on which side stays hidden
 * until the vote), and the history list from the query cache (`cachedHistoryList` in
 * `api/history-query.ts`).
 */
export interface DuetState {
  profile: Profile;
  /** Object URL of the image picked for the current question ('' when none). */
  uploadedImage: string;
  promptResult: PromptResult;
  /** The live battle as the socket reports it: its first turn and each follow-up. */
  conversation: Conversation | null;
  /** The place in the queue of a turn waiting for a worker (null once it starts, or unknown). */
  queuePlace: QueuePlace | null;

  setProfile: (profile: Profile) => void;
  setUploadedImage: (url: string) => void;
  setPromptResult: (result: PromptResult) => void;
  /** Starts following battle `battleId` from its first turn (a battle followed already is kept). */
  beginConversation: (battleId: string) => void;
  /** A turn's snapshot, from a join or a live event. */
  takeSnapshot: (snapshot: BattleSnapshot) => void;
  /** A follow-up the gateway took on battle `battleId` (ignored once another battle is shown). */
  addFollowUp: (battleId: string, followUp: FollowUpView) => void;
  setQueuePlace: (place: QueuePlace | null) => void;
  resetBattle: () => void;
}

export const useDuetStore = create<DuetState>()((set) => ({
  profile: {},
  uploadedImage: '',
  promptResult: {},
  conversation: null,
  queuePlace: null,

  setProfile: (profile) => set({ profile }),
  setUploadedImage: (uploadedImage) =>
    set((s) => {
      if (s.uploadedImage && s.uploadedImage !== uploadedImage) URL.revokeObjectURL(s.uploadedImage);
      return { uploadedImage };
    }),
  setPromptResult: (promptResult) => set({ promptResult }),
  beginConversation: (battleId) =>
    set((s) => (s.conversation?.battleId === battleId ? {} : { conversation: startConversation(battleId), queuePlace: null })),
  takeSnapshot: (snapshot) => set((s) => (s.conversation ? { conversation: withSnapshot(s.conversation, snapshot) } : {})),
  addFollowUp: (battleId, followUp) =>
    set((s) => (s.conversation?.battleId === battleId ? { conversation: addTurn(s.conversation, followUp) } : {})),
  setQueuePlace: (queuePlace) => set({ queuePlace }),
  resetBattle: () =>
    set((s) => {
      // A follow-up's image shown from the visitor's own file: its object URL goes with the battle.
      for (const turn of s.conversation?.turns ?? []) if (turn.ask?.imageUrl?.startsWith('blob:')) URL.revokeObjectURL(turn.ask.imageUrl);
      return { conversation: null, queuePlace: null, promptResult: {} };
    }),
}));

/** The current turn's snapshot: the last turn asked, as the socket reports it (null before its first). */
export const selectBattle = (s: DuetState): BattleSnapshot | null => (s.conversation ? currentTurn(s.conversation).snapshot : null);

/** The specification's "GPT result text": side A's text so far in the current turn ('' with no battle). */
export const selectResultA = (s: DuetState): string => selectBattle(s)?.sides.a.text ?? '';
/** The specification's "Claude 3 result text": side B's text so far in the current turn. */
export const selectResultB = (s: DuetState): string => selectBattle(s)?.sides.b.text ?? '';
/** The specification's first progress value: side A's in the current turn, 0 to 100 (0 with no battle). */
export const selectProgressA = (s: DuetState): number => selectBattle(s)?.sides.a.progress ?? 0;
/** The specification's second progress value: side B's in the current turn. */
export const selectProgressB = (s: DuetState): number => selectBattle(s)?.sides.b.progress ?? 0;
