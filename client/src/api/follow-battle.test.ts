import type { BattleSnapshot } from '@duet/contracts/live';
import { emptySide } from '@duet/contracts/live';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followBattle } from './follow-battle.ts';
import type { DuetSocket } from './socket.ts';

const BATTLE = '6f1c1d52-4a39-4f5e-9f39-0d7cf4c6e2a1';

type JoinAnswer = { ok: true; data: BattleSnapshot } | { ok: false; error: { code: string; message: string } };

/**
 * A gateway and one browser's socket to it. The gateway holds side A's deltas and relays each new
 * one while the socket is connected; `battle:join` answers with everything so far.
 */
function fakeGateway() {
  const handlers = new Map<string, Set<(payload?: unknown) => void>>();
  const deltas: string[] = [];
  const joins: unknown[] = [];
  const sent: Array<[string, unknown]> = [];
  let connected = false;
  /** Runs while a join is in flight, before its answer: the gateway relaying meanwhile. */
  let duringJoin: (() => void) | null = null;
  let refusal: string | null = null;

  const fire = (event: string, payload?: unknown) => handlers.get(event)?.forEach((h) => h(payload));
  const snapshot = (): BattleSnapshot => ({
    battleId: BATTLE,
    tool: 'anything-question',
    turn: 1,
    followUps: [],
    sides: {
      a: { ...emptySide('Model A'), state: deltas.length ? 'streaming' : 'waiting', text: deltas.join(''), seq: deltas.length },
      b: emptySide('Model B'),
    },
    finished: false,
    voted: false,
  });
  const relay = (seq: number) => {
    if (connected) fire('battle:events', [{ type: 'delta', battleId: BATTLE, side: 'a', seq, text: deltas[seq - 1] }]);
  };

  const socket = {
    get connected() {
      return connected;
    },
    on: (event: string, handler: (payload?: unknown) => void) => {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
    },
    off: (event: string, handler: (payload?: unknown) => void) => {
      handlers.get(event)?.delete(handler);
    },
    emit: (event: string, payload: unknown) => {
      sent.push([event, payload]);
    },
    timeout: () => ({
      emitWithAck: async (event: string, payload: unknown): Promise<JoinAnswer> => {
        expect(event).toBe('battle:join');
        joins.push(payload);
        if (refusal) return { ok: false, error: { code: refusal, message: refusal } };
        const answer = snapshot();
        duringJoin?.();
        duringJoin = null;
        return { ok: true, data: answer };
      },
    }),
  };

  return {
    // The follower uses only these members of a Socket.IO socket.
    socket: socket as unknown as DuetSocket,
    joins,
    sent,
    listeners: () => [...handlers.values()].reduce((n, set) => n + set.size, 0),
    /** The model writes `text`: stored, and relayed live to a connected browser. */
    write(text: string) {
      deltas.push(text);
      relay(deltas.length);
    },
    /** Relays delta `seq` again (a copy the snapshot already holds). */
    relayAgain: relay,
    /** Sends a delta past the next one, as if the one in between was lost on the way. */
    writeSkipping(lost: string, text: string) {
      deltas.push(lost, text);
      relay(deltas.length);
    },
    connect() {
      connected = true;
      fire('connect');
    },
    disconnect() {
      connected = false;
      fire('disconnect');
    },
    resync: () => fire('battle:resync', { battleId: BATTLE }),
    /** The gateway tells a battle's viewers its place in the queue. */
    queued: (battleId: string, position: number) => fire('battle:queued', { battleId, position, etaSeconds: null }),
    whileJoining: (run: () => void) => {
      duringJoin = run;
    },
    refuseJoins: (code: string) => {
      refusal = code;
    },
    /** One message with several events, as the gateway sends a flush of both sides. */
    relayMessage: (events: unknown[]) => fire('battle:events', events),
    /** Another battle's delta, numbered as if it followed on from this one's. */
    otherBattle: (text: string) =>
      fire('battle:events', [{ type: 'delta', battleId: '00000000-0000-4000-8000-000000000000', side: 'a', seq: deltas.length + 1, text }]),
  };
}

/** Follows the battle, recording every state published. */
function follow(gateway: ReturnType<typeof fakeGateway>) {
  const published: BattleSnapshot[] = [];
  const stop = followBattle(gateway.socket, BATTLE, (s) => published.push(s));
  return { published, stop, text: () => published.at(-1)?.sides.a.text ?? null };
}

describe('following a battle live', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("applies every event of one message in order: both sides' text, and a side's end", async () => {
    const gateway = fakeGateway();
    const { published } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    gateway.relayMessage([
      { type: 'delta', battleId: BATTLE, side: 'a', seq: 1, text: 'Tides ' },
      { type: 'delta', battleId: BATTLE, side: 'b', seq: 1, text: 'Waves ' },
      { type: 'delta', battleId: BATTLE, side: 'b', seq: 2, text: 'break.' },
      { type: 'done', battleId: BATTLE, side: 'b', stats: { finishReason: 'stop' }, chars: 12 },
    ]);
    const last = published.at(-1);
    expect(last?.sides.a).toMatchObject({ text: 'Tides ', state: 'streaming' });
    expect(last?.sides.b).toMatchObject({ text: 'Waves break.', state: 'done', seq: 2 });
    expect(gateway.joins).toHaveLength(1);
  });

  it('re-joins on a reconnect and resumes without gaps or repeats', async () => {
    const gateway = fakeGateway();
    gateway.write('Tides ');
    const { published, text } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(text()).toBe('Tides ');

    gateway.write('follow ');
    expect(text()).toBe('Tides follow ');

    // The connection drops; the model goes on writing.
    gateway.disconnect();
    gateway.write('the ');
    gateway.write('Moon');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(text()).toBe('Tides follow ');
    expect(gateway.joins).toHaveLength(1);

    // Back: one join at once, and what was missed is shown.
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(gateway.joins).toEqual([{ battleId: BATTLE }, { battleId: BATTLE }]);
    expect(text()).toBe('Tides follow the Moon');

    // A copy of a delta the snapshot holds is not shown twice; the next one follows on.
    gateway.relayAgain(4);
    gateway.write('.');
    expect(text()).toBe('Tides follow the Moon.');

    const final = 'Tides follow the Moon.';
    for (const s of published) expect(final.startsWith(s.sides.a.text)).toBe(true);
    const seqs = published.map((s) => s.sides.a.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(gateway.joins).toHaveLength(2);
  });

  it('applies the deltas relayed while a reconnect’s join is in flight once each, on top of its snapshot', async () => {
    const gateway = fakeGateway();
    const { text } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    gateway.write('a');
    gateway.disconnect();
    gateway.write('b');
    gateway.whileJoining(() => {
      gateway.relayAgain(2);
      gateway.write('c');
      gateway.relayAgain(3);
    });
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(text()).toBe('abc');
    gateway.write('d');
    expect(text()).toBe('abcd');
  });

  it('joins again for a fresh snapshot when a delta shows one was lost', async () => {
    const gateway = fakeGateway();
    const { text } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    gateway.write('Salt ');
    gateway.writeSkipping('and ', 'sea');
    expect(text()).toBe('Salt ');
    await vi.advanceTimersByTimeAsync(0);
    expect(gateway.joins).toHaveLength(2);
    expect(text()).toBe('Salt and sea');
  });

  it('joins again when the gateway asks this battle’s viewers to resync', async () => {
    const gateway = fakeGateway();
    follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    gateway.resync();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gateway.joins).toHaveLength(2);
  });

  it('passes on the battle’s place in the queue, and only its own', async () => {
    const gateway = fakeGateway();
    gateway.connect();
    const places: number[] = [];
    const stop = followBattle(gateway.socket, BATTLE, () => undefined, (p) => places.push(p.position));
    gateway.queued(BATTLE, 3);
    gateway.queued('00000000-0000-4000-8000-000000000000', 1);
    gateway.queued(BATTLE, 2);
    expect(places).toEqual([3, 2]);
    stop();
    gateway.queued(BATTLE, 1);
    expect(places).toEqual([3, 2]);
  });

  it('ignores the events of other battles', async () => {
    const gateway = fakeGateway();
    const { text } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    gateway.write('mine');
    gateway.otherBattle('not mine');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(text()).toBe('mine');
    expect(gateway.joins).toHaveLength(1);
  });

  it('stops joining a battle the gateway does not know', async () => {
    const gateway = fakeGateway();
    gateway.refuseJoins('not_found');
    const { published } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(gateway.joins).toHaveLength(1);
    expect(published).toEqual([]);
  });

  it('keeps trying a join refused for a passing reason', async () => {
    const gateway = fakeGateway();
    gateway.refuseJoins('rate_limited');
    follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(gateway.joins.length).toBeGreaterThan(2);
  });

  it('leaves the battle’s room and stops listening once stopped', async () => {
    const gateway = fakeGateway();
    const { published, stop } = follow(gateway);
    gateway.connect();
    await vi.advanceTimersByTimeAsync(0);
    const shown = published.length;
    stop();
    expect(gateway.sent).toEqual([['battle:leave', { battleId: BATTLE }]]);
    expect(gateway.listeners()).toBe(0);
    gateway.write('late');
    gateway.disconnect();
    gateway.connect();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(published).toHaveLength(shown);
    expect(gateway.joins).toHaveLength(1);
  });
});
