import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacedText } from './paced-text.ts';

describe('paced text for a live region', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** What was passed on, with when. */
  const setup = () => {
    const shown: Array<[ms: number, text: string]> = [];
    const paced = createPacedText(30_000, (text) => shown.push([Date.now(), text]));
    return { paced, shown };
  };

  it('passes on the first text at once, then at most one every 30 s: the newest by then', () => {
    const { paced, shown } = setup();
    paced.set('number 400 in line');
    for (let n = 399; n > 390; n--) {
      vi.advanceTimersByTime(1_000);
      paced.set(`number ${n} in line`);
    }
    expect(shown).toEqual([[0, 'number 400 in line']]);
    vi.advanceTimersByTime(21_000);
    expect(shown).toEqual([
      [0, 'number 400 in line'],
      [30_000, 'number 391 in line'],
    ]);
  });

  it('passes on nothing when the text comes back to what was last shown', () => {
    const { paced, shown } = setup();
    paced.set('number 2 in line');
    paced.set('number 1 in line');
    paced.set('number 2 in line');
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([[0, 'number 2 in line']]);
  });

  it('clears at once, and shows the next text at once after that', () => {
    const { paced, shown } = setup();
    paced.set('number 2 in line');
    vi.advanceTimersByTime(1_000);
    paced.set('');
    paced.set('Both answers are ready.');
    expect(shown).toEqual([
      [0, 'number 2 in line'],
      [1_000, ''],
      [1_000, 'Both answers are ready.'],
    ]);
  });

  it('clears at once while a text waits its turn, and drops that text', () => {
    const { paced, shown } = setup();
    paced.set('number 2 in line');
    vi.advanceTimersByTime(1_000);
    paced.set('number 1 in line');
    paced.set('');
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([
      [0, 'number 2 in line'],
      [1_000, ''],
    ]);
  });

  it('passes on nothing once stopped', () => {
    const { paced, shown } = setup();
    paced.set('number 2 in line');
    paced.set('number 1 in line');
    paced.stop();
    vi.advanceTimersByTime(60_000);
    expect(shown).toEqual([[0, 'number 2 in line']]);
  });
});
