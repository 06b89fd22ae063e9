import { create } from 'zustand';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

/** The specification's toasts: at most 3 visible, each hidden after 5,000 ms. */
export const TOAST_LIMIT = 3;
export const TOAST_MS = 5_000;

interface ToastState {
  toasts: Toast[];
  show: (kind: ToastKind, message: string) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  show: (kind, message) => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts, { id, kind, message }].slice(-TOAST_LIMIT) }));
    setTimeout(() => get().dismiss(id), TOAST_MS);
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

/** Shows a toast from anywhere (event handlers, query callbacks). */
export const toast = {
  success: (message: string) => useToasts.getState().show('success', message),
  error: (message: string) => useToasts.getState().show('error', message),
  info: (message: string) => useToasts.getState().show('info', message),
};
