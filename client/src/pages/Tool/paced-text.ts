import { useEffect, useRef, useState } from 'react';

/**
 * Passes on a text that may change every second at most once every `everyMs`: the first text, and
 * an empty one, at once; later ones when the pause since the last is over (the newest by then).
 * For a live region: a place in line that moves every second would otherwise be read out to a
 * screen reader every second.
 */
export function createPacedText(everyMs: number, show: (text: string) => void) {
  let shown = '';
  let shownAt = -Infinity;
  let latest = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    if (latest === shown) return;
    shown = latest;
    shownAt = Date.now();
    show(shown);
  };
  return {
    set(text: string) {
      latest = text;
      const wait = shown === '' || text === '' ? 0 : shownAt + everyMs - Date.now();
      if (wait <= 0) {
        if (timer !== null) clearTimeout(timer);
        flush();
      } else if (timer === null) timer = setTimeout(flush, wait);
    },
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/** `text`, paced by {@link createPacedText} for as long as the component is shown. */
export function usePacedText(text: string, everyMs: number): string {
  const [shown, setShown] = useState('');
  const paced = useRef<ReturnType<typeof createPacedText> | null>(null);
  useEffect(() => {
    const p = createPacedText(everyMs, setShown);
    paced.current = p;
    return () => p.stop();
  }, [everyMs]);
  useEffect(() => paced.current?.set(text), [text]);
  return shown;
}
