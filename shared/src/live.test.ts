import { describe, expect, it } from 'vitest';
import { applySideEvent, emptySide, parseStreamEntries } from './live.ts';
import type { BattleEvent } from './live.ts';

const delta = (seq: number, text: string, reset?: boolean): BattleEvent => ({
  type: 'delta',
  battleId: 'b',
  side: 'a',
  seq,
  text,
  ...(reset ? { reset } : {}),
});

describe('applySideEvent', () => {
  it('appends deltas in order and ignores ones already applied', () => {
    let view = emptySide('Model A');
    for (const e of [delta(1, 'Hel'), delta(2, 'lo'), delta(2, 'lo'), delta(1, 'Hel')]) view = applySideEvent(view, e).view;
    expect(view.text).toBe('Hello');
    expect(view.seq).toBe(2);
    // A repeat is expected (snapshot and live events overlap): it is not a gap.
    expect(applySideEvent(view, delta(2, 'lo'))).toEqual({ view, gap: false });
    expect(view.state).toBe('streaming');
  });

  it('refuses a delta after a gap and reports it', () => {
    const first = applySideEvent(emptySide('A'), delta(1, 'a')).view;
    const result = applySideEvent(first, delta(3, 'c'));
    expect(result.gap).toBe(true);
    expect(result.view.text).toBe('a');
  });

  it('replaces the text on a reset delta', () => {
    let view = applySideEvent(emptySide('A'), delta(1, 'stale partial')).view;
    view = applySideEvent(view, delta(2, 'fresh', true)).view;
    expect(view.text).toBe('fresh');
  });

  it('never lets progress go back and ends at 100 when done', () => {
    let view = applySideEvent(emptySide('A'), { type: 'progress', battleId: 'b', side: 'a', progress: 40 }).view;
    view = applySideEvent(view, { type: 'progress', battleId: 'b', side: 'a', progress: 20 }).view;
    expect(view.progress).toBe(40);
    const stats = { finishReason: 'stop' as const, inputTokens: 1, outputTokens: 2, ttftMs: 3, durationMs: 4 };
    view = applySideEvent(view, { type: 'done', battleId: 'b', side: 'a', stats }).view;
    expect(view).toMatchObject({ state: 'done', progress: 100, stats });
  });

  it('records an error', () => {
    const view = applySideEvent(emptySide('A'), { type: 'error', battleId: 'b', side: 'a', code: 'timeout', message: 'm' }).view;
    expect(view).toMatchObject({ state: 'error', error: { code: 'timeout', message: 'm' } });
  });
});

describe('parseStreamEntries', () => {
  it('reads each entry’s event and skips what does not parse', () => {
    const good = { type: 'delta', battleId: 'b', side: 'a', seq: 1, text: 'hi' };
    const events = parseStreamEntries([
      ['1-0', ['e', JSON.stringify(good)]],
      ['2-0', ['e', '{not json']],
      ['3-0', ['e', JSON.stringify({ type: 'delta', side: 'z' })]],
      ['4-0', ['other', JSON.stringify(good)]],
      ['5-0', ['x', 'e', 'e', JSON.stringify({ ...good, seq: 2 })]],
    ]);
    expect(events).toEqual([good, { ...good, seq: 2 }]);
  });
});
