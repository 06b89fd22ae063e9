/**
 * Visitors: `BATTLES` battles created at once on the gateway at `GATEWAY_URL`, each followed by a
 * Socket.IO viewer of its own as a browser does (join, snapshot, live events), then voted on.
 * Each token's delivery lag is the time the viewer reads it minus the time the fake server stamped
 * on it. Prints `{ battles, finished, voted, firstMissed, tokens, firstLags, firstTextMs, lags, postMs, failures }`.
 */
import { applySideEvent, sideEnded } from '@duet/contracts';
import type { BattleSnapshot, CreateBattleResponse, LiveEvent } from '@duet/contracts';
import { io } from 'socket.io-client';
import { readStamps, wallClockMs } from '../../test/fakes/fake-llm-server.ts';
import type { DuetSocket } from '../../test/helpers/battle-viewer.ts';

const url = process.env.GATEWAY_URL!;
const battles = Number(process.env.BATTLES);
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 180_000);
const firstLags: number[] = [];
/** Per side, from the start of its battle's POST to the first text the viewer saw: the visitor's wait. */
const firstTextMs: number[] = [];
const lags: number[] = [];
const postMs: number[] = [];
let finished = 0;
let voted = 0;
/** Sides whose first token was already in the snapshot (joined late): their first lag is unknown. */
let firstMissed = 0;
/** Why battles did not finish: `post <status>`, `join <code>`, `timeout`. */
const failures: Record<string, number> = {};
const fail = (why: string): void => void (failures[why] = (failures[why] ?? 0) + 1);

async function post<T>(path: string, body: object): Promise<{ status: number; body: T; retryAfterS: number }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T, retryAfterS: Number(res.headers.get('retry-after') ?? 1) };
}

/** Tries a refused battle again after its Retry-After, as a visitor told to come back would, at most this many times. */
const POST_TRIES = 4;

async function one(i: number): Promise<void> {
  const t0 = performance.now();
  let created = await post<CreateBattleResponse>('/api/battles', { tool: 'anything-question', text: `Crowd question ${i}`, lang: 'en' });
  for (let tries = 1; created.status === 503 && tries < POST_TRIES; tries += 1) {
    fail(`post 503 ${(created.body as unknown as { error?: { code?: string } }).error?.code ?? ''} (tried again)`.trim());
    await new Promise((r) => setTimeout(r, created.retryAfterS * 1000));
    created = await post<CreateBattleResponse>('/api/battles', { tool: 'anything-question', text: `Crowd question ${i}`, lang: 'en' });
  }
  postMs.push(performance.now() - t0);
  if (created.status !== 202) return fail(`post ${created.status}`);
  const { battleId, voteToken } = created.body;
  const socket: DuetSocket = io(url, { transports: ['websocket'], forceNew: true, reconnection: true });
  let snapshot: BattleSnapshot | null = null;
  const buffered: LiveEvent[] = [];
  const seen = { a: false, b: false };
  const done = new Promise<void>((resolve) => {
    const check = () => {
      if (snapshot && sideEnded(snapshot.sides.a) && sideEnded(snapshot.sides.b)) resolve();
    };
    const apply = (e: LiveEvent) => {
      if (!snapshot) return void buffered.push(e);
      snapshot.sides[e.side] = applySideEvent(snapshot.sides[e.side], e).view;
      check();
    };
    const receive = (e: LiveEvent, now: number) => {
      if (e.type === 'delta') {
        if (!seen[e.side] && e.text) firstTextMs.push(performance.now() - t0);
        for (const stamp of readStamps(e.text)) {
          lags.push(now - stamp);
          if (!seen[e.side]) firstLags.push(now - stamp);
          seen[e.side] = true;
        }
      }
      apply(e);
    };
    socket.on('battle:events', (events) => {
      const now = wallClockMs();
      for (const e of events) receive(e, now);
    });
    // A gateway from before `battle:events` (a `--before` checkout) sends an event a message.
    const legacy = socket as unknown as { on: (event: string, listener: (payload: Omit<LiveEvent, 'type'>) => void) => void };
    for (const type of ['delta', 'done', 'error'] as const) {
      legacy.on(`battle:${type}`, (payload) => receive({ type, ...payload } as LiveEvent, wallClockMs()));
    }
    socket.on('connect', () => {
      void socket.emitWithAck('battle:join', { battleId }).then((res) => {
        if (!res.ok) return fail(`join ${res.error.code}`);
        snapshot = res.data;
        for (const side of ['a', 'b'] as const) {
          if (!seen[side] && snapshot.sides[side].text) {
            seen[side] = true;
            firstMissed += 1;
            firstTextMs.push(performance.now() - t0);
          }
        }
        for (const e of buffered.splice(0)) apply(e);
        check();
      });
    });
  });
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  const outcome = await Promise.race([done.then(() => 'done' as const), timer]);
  socket.close();
  if (outcome !== 'done') return fail('timeout');
  finished += 1;
  const vote = await post(`/api/battles/${battleId}/vote`, { winner: 'a', voteToken });
  if (vote.status === 200) voted += 1;
}

await Promise.all(Array.from({ length: battles }, (_, i) => one(i).catch((err: unknown) => fail(`error ${(err as Error).message}`))));
// Exit only once the result is written: stdout to a pipe is asynchronous, and a large result would be cut.
process.stdout.write(`${JSON.stringify({ battles, finished, voted, firstMissed, tokens: lags.length, firstLags, firstTextMs, lags, postMs, failures })}\n`, () => process.exit(0));
