import { create } from 'zustand';

/** Which form the sign-in dialog opens on. */
export type AuthDialogMode = 'login' | 'signup';

interface AuthDialogRequest {
  /** A form asked for from outside the header (a page offering sign-up); the header opens it. */
  requested: AuthDialogMode | null;
  request: (mode: AuthDialogMode) => void;
  clear: () => void;
}

/** Lets any page open the header's sign-in dialog (the dialog itself lives in the header). */
export const useAuthDialog = create<AuthDialogRequest>()((set) => ({
  requested: null,
  request: (mode) => set({ requested: mode }),
  clear: () => set({ requested: null }),
}));
