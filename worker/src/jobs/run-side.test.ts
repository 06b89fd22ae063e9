import type { BattleEvent } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ModelProvider, StreamChunk } from '../providers/provider.ts';
import { ProviderError } from '../providers/provider.ts';
import { createDeltaClock } from './delta-clock.ts';
import { estimateProgress, runSide } from './run-side.ts';
import type { SideRunOptions } from './run-side.ts';

type Step = { text: string; wait?: number } | { fail: ProviderError } | { hang: true };

/** A provider that plays one script per attempt. */
function scripted(attempts: Step[][]): ModelProvider & { calls: number } {
  const provider = {
    calls: 0,
    spec: { id: 's', label: 'S', provider: 'demo' as const, model: 's', family: 'other' as const, weight: 1 },
    async *stream(req: ChatRequest): AsyncIterable<StreamChunk> {
      const script = attempts[Math.min(provider.calls, attempts.length - 1)] ?? [];
      provider.calls += 1;
      for (const step of script) {
        if ('fail' in step) throw step.fail;
        if ('hang' in step) {
          await new Promise<void>((resolve) => req.signal.addEventListener('abort', () => resolve(), { once: true }));
          yield { type: 'finish', reason: 'cancelled' };
          return;
        }
        if (step.wait) await new Promise((r) => setTimeout(r, step.wait));
        if (req.signal.aborted) {
          yield { type: 'finish', reason: 'cancelled' };
          return;
        }
        yield { type: 'text', text: step.text };
      }
      yield { type: 'usage', inputTokens: 3, outputTokens: script.length };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  return provider;
}

const options = (provider: ModelProvider, events: BattleEvent[], extra: Partial<SideRunOptions> = {}): SideRunOptions => ({
  battleId: 'battle',
  side: 'a',
  provider,
  request: {
    system: 's',
    user: 'u',
    maxTokens: 100,
    context: { tool: 'quiz-solving', lang: 'en', inputs: {}, text: 'q', hasImage: false },
  },
  cancel: new AbortController().signal,
  publish: async (e) => {
    events.push(e);
  },
  startSeq: 0,
  resetFirst: false,
  clock: createDeltaClock(() => 5),
  idleTimeoutMs: 1_000,
  retries: 3,
  retryBaseMs: 1,
  ...extra,
});

const deltas = (events: BattleEvent[]) => events.flatMap((e) => (e.type === 'delta' ? [e] : []));

describe('runSide', () => {
  it('streams the text in numbered deltas and reports stats', async () => {
    const events: BattleEvent[] = [];
    const result = await runSide(options(scripted([[{ text: 'Hello' }, { text: ', ', wait: 15 }, { text: 'world' }]]), events));
    expect(result.text).toBe('Hello, world');
    expect(result.error).toBeNull();
    expect(result.stats).toMatchObject({ finishReason: 'stop', inputTokens: 3, outputTokens: 3 });
    expect(result.stats.ttftMs).not.toBeNull();
    expect(deltas(events).map((d) => d.text).join('')).toBe('Hello, world');
    expect(deltas(events).map((d) => d.seq)).toEqual(deltas(events).map((_, i) => i + 1));
  });

  it('reads the wait before sending at each token: each token alone while it is 0, then gathered while it is long', async () => {
    const events: BattleEvent[] = [];
    let asked = 0;
    // The first token goes at once without asking; the next two find no wait; from the fourth the
    // worker is "busy": a long wait.
    const flushMs = () => (++asked <= 2 ? 0 : 60_000);
    const script = ['t1 ', 't2 ', 't3 ', 't4 ', 't5 ', 't6'].map((text) => ({ text, wait: 10 }));
    const result = await runSide(options(scripted([script]), events, { clock: createDeltaClock(flushMs) }));
    expect(result.text).toBe('t1 t2 t3 t4 t5 t6');
    // The last three went out together when the stream ended, not a minute later.
    expect(deltas(events).map((d) => d.text)).toEqual(['t1 ', 't2 ', 't3 ', 't4 t5 t6']);
  });

  it("sends both sides' text in the same flush when they share the battle's clock", async () => {
    const events: BattleEvent[] = [];
    const turns: string[][] = [];
    // What each turn of the event loop published: the publisher sends a turn's events as one message.
    let turn: string[] | null = null;
    const publish = async (e: BattleEvent) => {
      events.push(e);
      if (e.type !== 'delta') return;
      if (!turn) {
        turn = [];
        turns.push(turn);
        setImmediate(() => (turn = null));
      }
      turn.push(`${e.side}:${e.text}`);
    };
    const clock = createDeltaClock(() => 40);
    const script = (side: string, offset: number) => [{ text: `${side}0 `, wait: offset }, ...[1, 2, 3, 4, 5].map((i) => ({ text: `${side}${i} `, wait: 15 }))];
    const [a, b] = await Promise.all([
      runSide(options(scripted([script('a', 1)]), events, { side: 'a', clock, publish })),
      runSide(options(scripted([script('b', 8)]), events, { side: 'b', clock, publish })),
    ]);
    expect(a.text).toBe('a0 a1 a2 a3 a4 a5 ');
    expect(b.text).toBe('b0 b1 b2 b3 b4 b5 ');
    // Each side's first text goes at once, alone; after that a flush carries both sides' text.
    expect(turns.some((t) => t.some((d) => d.startsWith('a:')) && t.some((d) => d.startsWith('b:')))).toBe(true);
    for (const side of ['a', 'b'] as const) {
      const sent = deltas(events).filter((d) => d.side === side);
      expect(sent[0]?.text).toBe(`${side}0 `);
      expect(sent.map((d) => d.text).join('')).toBe(side === 'a' ? a.text : b.text);
      expect(sent.map((d) => d.seq)).toEqual(sent.map((_, i) => i + 1));
    }
  });

  it('retries a retryable failure before the first token, without repeating text', async () => {
    const events: BattleEvent[] = [];
    const provider = scripted([[{ fail: new ProviderError('busy', 'rate_limited', true, 429) }], [{ text: 'once' }]]);
    const result = await runSide(options(provider, events));
    expect(provider.calls).toBe(2);
    expect(result.text).toBe('once');
    expect(deltas(events).map((d) => d.text).join('')).toBe('once');
  });

  it('gives up after the configured retries with a message for viewers', async () => {
    const provider = scripted([[{ fail: new ProviderError('sk-secret in message', 'provider_unavailable', true, 503) }]]);
    const result = await runSide(options(provider, [], { retries: 2 }));
    expect(provider.calls).toBe(3);
    expect(result.stats.finishReason).toBe('error');
    expect(result.error?.code).toBe('provider_unavailable');
    expect(result.error?.message).not.toContain('sk-secret');
  });

  it('does not retry once text was shown', async () => {
    const provider = scripted([[{ text: 'partial' }, { fail: new ProviderError('cut', 'stream_cut', true) }], [{ text: 'again' }]]);
    const result = await runSide(options(provider, []));
    expect(provider.calls).toBe(1);
    expect(result.text).toBe('partial');
    expect(result.error?.code).toBe('stream_cut');
  });

  it('does not retry a non-retryable error', async () => {
    const provider = scripted([[{ fail: new ProviderError('no', 'bad_request', false, 400) }]]);
    const result = await runSide(options(provider, []));
    expect(provider.calls).toBe(1);
    expect(result.error?.code).toBe('bad_request');
  });

  it('times out a silent model', async () => {
    const provider = scripted([[{ text: 'start' }, { hang: true }]]);
    const result = await runSide(options(provider, [], { idleTimeoutMs: 50 }));
    expect(result.error?.code).toBe('timeout');
    expect(result.text).toBe('start');
  });

  it('ends as cancelled, keeping partial text, when the battle is cancelled', async () => {
    const cancel = new AbortController();
    const events: BattleEvent[] = [];
    const provider = scripted([[{ text: 'part' }, { hang: true }]]);
    const running = runSide(options(provider, events, { cancel: cancel.signal }));
    setTimeout(() => cancel.abort(), 30);
    const result = await running;
    expect(result.stats.finishReason).toBe('cancelled');
    expect(result.error).toBeNull();
    expect(result.text).toBe('part');
  });

  it('continues the seq of an earlier attempt and marks the first delta as a reset', async () => {
    const events: BattleEvent[] = [];
    await runSide(options(scripted([[{ text: 'fresh' }]]), events, { startSeq: 7, resetFirst: true }));
    expect(deltas(events)[0]).toMatchObject({ seq: 8, reset: true, text: 'fresh' });
  });
});

describe('estimateProgress', () => {
  it('rises with the text and stays below 100', () => {
    expect(estimateProgress(0, 1000)).toBe(0);
    expect(estimateProgress(500, 1000)).toBeLessThan(estimateProgress(2000, 1000));
    expect(estimateProgress(1_000_000, 1000)).toBe(99);
  });
});
