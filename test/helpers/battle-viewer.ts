import { applySideEvent, sideEnded } from '@duet/contracts';
import type { BattleSnapshot, ClientToServerEvents, LiveEvent, ServerToClientEvents, Side } from '@duet/contracts';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { waitFor } from './wait.ts';

export type DuetSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A real Socket.IO client against a test gateway. */
export async function connectSocket(url: string): Promise<DuetSocket> {
  const socket: DuetSocket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * Watches one battle the way the browser does: joins, takes the snapshot, then applies live
 * events exactly once (by seq), re-joining if it ever sees a gap.
 */
export class BattleViewer {
  snapshot: BattleSnapshot | null = null;
  /** Every live event received, in order, as sent. */
  readonly events: LiveEvent[] = [];
  /** Every `battle:events` message received for this battle, as the gateway grouped its events. */
  readonly messages: LiveEvent[][] = [];
  private buffered: LiveEvent[] = [];
  gaps = 0;
  /** `battle:join` calls made, the first one included. */
  joins = 0;
  /** `battle:resync` requests received. */
  resyncs = 0;

  constructor(
    readonly socket: DuetSocket,
    readonly battleId: string,
  ) {
    socket.on('battle:events', (events) => {
      const mine = events.filter((event) => event.battleId === battleId);
      if (mine.length > 0) this.messages.push(mine);
      for (const event of mine) {
        this.events.push(event);
        if (this.snapshot) this.apply(event);
        else this.buffered.push(event);
      }
    });
    socket.on('battle:resync', (payload) => {
      if (payload.battleId !== battleId) return;
      this.resyncs += 1;
      this.snapshot = null;
      void this.rejoin();
    });
  }

  async join(): Promise<BattleSnapshot> {
    this.joins += 1;
    const res = await this.socket.emitWithAck('battle:join', { battleId: this.battleId });
    if (!res.ok) throw new Error(`join failed: ${res.error.code} ${res.error.message}`);
    this.snapshot = res.data;
    const pending = this.buffered;
    this.buffered = [];
    for (const e of pending) this.apply(e);
    return res.data;
  }

  /** Joins again for a fresh snapshot, trying again while the gateway answers with an error (an outage). */
  private async rejoin(): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        await this.join();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private apply(event: LiveEvent): void {
    if (!this.snapshot) return;
    const { view, gap } = applySideEvent(this.snapshot.sides[event.side], event);
    if (gap) {
      this.gaps += 1;
      this.snapshot = null;
      void this.rejoin();
      return;
    }
    this.snapshot.sides[event.side] = view;
    this.snapshot.finished = sideEnded(this.snapshot.sides.a) && sideEnded(this.snapshot.sides.b);
  }

  /** Waits until both sides have some text (both models are answering). */
  async streaming(): Promise<void> {
    await waitFor(() => !!(this.snapshot?.sides.a.text && this.snapshot.sides.b.text), { what: 'both sides streaming' });
  }

  /** Waits until both sides have ended; returns the final view. */
  finished(timeoutMs = 20_000): Promise<BattleSnapshot> {
    return waitFor(() => (this.snapshot?.finished ? this.snapshot : undefined), { timeoutMs, what: 'both sides to end' });
  }
}

/** Follows a battle in a viewer on a socket of its own until both sides have ended; returns the final view. */
export async function watchToEnd(url: string, battleId: string): Promise<BattleSnapshot> {
  const socket = await connectSocket(url);
  try {
    const viewer = new BattleViewer(socket, battleId);
    await viewer.join();
    return await viewer.finished();
  } finally {
    socket.disconnect();
  }
}

/**
 * A browser following one battle that can move to another gateway, as behind a load balancer:
 * joins, takes the snapshot, applies live events once each by seq, and records every text it
 * shows, so a gap or a repeat would show up as a text that is not a prefix of the answer.
 */
export class FailoverViewer {
  snapshot: BattleSnapshot | null = null;
  readonly shown: Record<Side, string[]> = { a: [], b: [] };
  private buffered: LiveEvent[] = [];
  socket: DuetSocket | null = null;

  constructor(readonly battleId: string) {}

  async follow(socket: DuetSocket): Promise<void> {
    this.socket = socket;
    this.snapshot = null;
    socket.on('battle:events', (events) => {
      for (const event of events) {
        if (event.battleId !== this.battleId) continue;
        if (this.snapshot) this.apply(event);
        else this.buffered.push(event);
      }
    });
    const res = await socket.emitWithAck('battle:join', { battleId: this.battleId });
    if (!res.ok) throw new Error(res.error.message);
    this.snapshot = res.data;
    this.record();
    for (const e of this.buffered.splice(0)) this.apply(e);
  }

  private apply(event: LiveEvent): void {
    if (!this.snapshot) return;
    const { view, gap } = applySideEvent(this.snapshot.sides[event.side], event);
    if (gap) throw new Error(`gap on side ${event.side} at seq ${event.type === 'delta' ? event.seq : '-'}`);
    this.snapshot.sides[event.side] = view;
    this.record();
  }

  private record(): void {
    for (const side of ['a', 'b'] as const) {
      const text = this.snapshot?.sides[side].text ?? '';
      if (this.shown[side].at(-1) !== text) this.shown[side].push(text);
    }
  }

  get finished(): boolean {
    return !!this.snapshot && sideEnded(this.snapshot.sides.a) && sideEnded(this.snapshot.sides.b);
  }
}
