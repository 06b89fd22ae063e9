import { describe, expect, it } from 'vitest';
import { applySideEvent, emptySide, parseStreamEntries, ZLiveMessageSchema } from './live.ts';
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

  it('never appends to a side that has ended, whose text is final even without a seq', () => {
    // A snapshot rebuilt from the stored answer: the whole text, seq 0, ended.
    const stored = { ...emptySide('A'), state: 'done' as const, text: 'Hello', progress: 100 };
    expect(applySideEvent(stored, delta(1, 'Hel'))).toEqual({ view: stored, gap: false });
  });

  it('takes an end whose text length the viewer lacks for a gap, so the viewer asks for a snapshot', () => {
    const partial = applySideEvent(emptySide('A'), delta(1, 'Hel')).view;
    const done = (chars?: number): BattleEvent => ({ type: 'done', battleId: 'b', side: 'a', stats: { finishReason: 'stop' }, ...(chars === undefined ? {} : { chars }) });
    expect(applySideEvent(partial, done(5))).toEqual({ view: partial, gap: true });
    expect(applySideEvent(partial, done(3)).view.state).toBe('done');
    expect(applySideEvent(partial, done()).view.state).toBe('done');
    const failed: BattleEvent = { type: 'error', battleId: 'b', side: 'a', code: 'stream_cut', message: 'cut', chars: 9 };
    expect(applySideEvent(partial, failed).gap).toBe(true);
  });

  it('takes the progress a delta carries, never going back', () => {
    const one = applySideEvent(emptySide('A'), { ...delta(1, 'a'), progress: 40 } as BattleEvent).view;
    expect(one.progress).toBe(40);
    expect(applySideEvent(one, { ...delta(2, 'b'), progress: 10 } as BattleEvent).view.progress).toBe(40);
    expect(applySideEvent(one, delta(2, 'b')).view.progress).toBe(40);
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

describe('ZLiveMessageSchema', () => {
  const A = '6f1c1d52-4a39-4f5e-9f39-0d7cf4c6e2a1';
  const B = '00000000-0000-4000-8000-000000000000';
  const delta = (battleId: string, side: 'a' | 'b', seq: number): BattleEvent => ({ type: 'delta', battleId, side, seq, text: 'x' });

  it("takes a list of one battle's events, in order, and a lone event as a list of one", () => {
    expect(ZLiveMessageSchema.parse([delta(A, 'a', 1), delta(A, 'b', 1)])).toEqual([delta(A, 'a', 1), delta(A, 'b', 1)]);
    expect(ZLiveMessageSchema.parse(delta(A, 'a', 2))).toEqual([delta(A, 'a', 2)]);
  });

  it('refuses an empty list and a list mixing battles', () => {
    expect(ZLiveMessageSchema.safeParse([]).success).toBe(false);
    expect(ZLiveMessageSchema.safeParse([delta(A, 'a', 1), delta(B, 'a', 1)]).success).toBe(false);
  });
});
