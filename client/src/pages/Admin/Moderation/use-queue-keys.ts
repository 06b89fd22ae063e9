import { useEffect, useRef } from 'react';

export interface QueueKeyActions {
  next: () => void;
  previous: () => void;
  approve: () => void;
  hide: () => void;
  restore: () => void;
}

/** Where typing means text, not a command. */
const TYPING = 'input, textarea, select, [contenteditable="true"]';

/**
 * The queue's keys, anywhere on the page: j or ↓ next, k or ↑ previous, a approve, h hide, r
 * restore. Not while typing in a field, with a modifier held, or while a dialog is open.
 */
export function useQueueKeys(actions: QueueKeyActions): void {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
      if (e.target instanceof Element && e.target.closest(TYPING)) return;
      if (document.querySelector('dialog[open]')) return;
      const a = latest.current;
      const run: Record<string, (() => void) | undefined> = {
        j: a.next,
        ArrowDown: a.next,
        k: a.previous,
        ArrowUp: a.previous,
        a: a.approve,
        h: a.hide,
        r: a.restore,
      };
      const action = run[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
