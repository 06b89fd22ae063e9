/**
 * Visitors: `BATTLES` battles created at once on the gateway at `GATEWAY_URL`, each followed by a
 * Socket.IO viewer of its own as a browser does (join, snapshot, live events), then voted on.
 * With `TURNS` above 1 (the gateway's `MAX_TURNS` at least as many), each visitor asks follow-ups
 * once both answers of a turn ended, until its battle has that many turns, the same viewer following
 * each turn by its own id (leaving the ended turn's room, as the browser does), and votes after the
 * last. Each token's delivery lag is the time the viewer reads it minus the time the fake server
 * stamped on it. Prints `{ battles, finished, voted, firstMissed, tokens, firstLags, firstTextMs,
 * lags, postMs, failures }`, the first-token figures of first turns only; with `TURNS` above 1 also
 * `turns`, each turn's own figures by its number − 1. `finished`: battles whose every turn finished.
 */
import { applySideEvent, sideEnded } from '@duet/contracts';
import type { BattleSnapshot, CreateBattleResponse, FollowUpResponse, LiveEvent } from '@duet/contracts';
import { io } from 'socket.io-client';
import { readStamps, wallClockMs } from '../../test/fakes/fake-llm-server.ts';
import type { DuetSocket } from '../../test/helpers/battle-viewer.ts';
import type { TurnLoad } from './duet-run.ts';

const url = process.env.GATEWAY_URL!;
const battles = Number(process.env.BATTLES);
const turns = Number(process.env.TURNS ?? 1);
/** How long a visitor waits for one turn's two answers. */
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 180_000);

const perTurn: TurnLoad[] = Array.from({ length: turns }, () => ({ firstLags: [], firstTextMs: [], lags: [], postMs: [], firstMissed: 0 }));
let finished = 0;
let voted = 0;
/** Why battles did not finish: `post <status>`, `join <code>`, `timeout`. */
const failures: Record<string, number> = {};
const fail = (why: string): void => void (failures[why] = (failures[why] ?? 0) + 1);

async function post<T>(path: string, body: object): Promise<{ status: number; body: T; retryAfterS: number }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T, retryAfterS: Number(res.headers.get('retry-after') ?? 1) };
}

/** Tries a refused question again after its Retry-After, as a visitor told to come back would, at most this many times. */
const POST_TRIES = 4;

/** Asks a question (a battle's first or a follow-up), noting its POST's time in `turn`. */
async function ask<T>(path: string, body: object, turn: TurnLoad): Promise<{ status: number; body: T }> {
  const t0 = performance.now();
  let asked = await post<T>(path, body);
  for (let tries = 1; asked.status === 503 && tries < POST_TRIES; tries += 1) {
    fail(`post 503 ${(asked.body as { error?: { code?: string } }).error?.code ?? ''} (tried again)`.trim());
    await new Promise((r) => setTimeout(r, asked.retryAfterS * 1000));
    asked = await post<T>(path, body);
  }
  turn.postMs.push(performance.now() - t0);
  return asked;
}

/**
 * Follows turns on one socket, one after another: `follow` joins a turn's room (again after a
 * reconnection) and resolves once both of its sides ended.
 */
function viewer(): { follow: (battleId: string, turn: TurnLoad, t0: number) => Promise<'done' | 'timeout'>; close: () => void } {
  const socket: DuetSocket = io(url, { transports: ['websocket'], forceNew: true, reconnection: true });
  let current: { battleId: string; join: () => void; receive: (e: LiveEvent, now: number) => void } | null = null;
  // A turn's events only: an ended turn's last messages may still be on their way.
  const receive = (e: LiveEvent, now: number) => {
    if (current && e.battleId === current.battleId) current.receive(e, now);
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
  socket.on('connect', () => current?.join());

  const follow = (battleId: string, turn: TurnLoad, t0: number): Promise<'done' | 'timeout'> => {
    if (current) socket.emit('battle:leave', { battleId: current.battleId });
    let snapshot: BattleSnapshot | null = null;
    const buffered: LiveEvent[] = [];
    const seen = { a: false, b: false };
    const done = new Promise<'done'>((resolve) => {
      const check = () => {
        if (snapshot && sideEnded(snapshot.sides.a) && sideEnded(snapshot.sides.b)) resolve('done');
      };
      const apply = (e: LiveEvent) => {
        if (!snapshot) return void buffered.push(e);
        snapshot.sides[e.side] = applySideEvent(snapshot.sides[e.side], e).view;
        check();
      };
      current = {
        battleId,
        receive: (e, now) => {
          if (e.type === 'delta') {
            if (!seen[e.side] && e.text) turn.firstTextMs.push(performance.now() - t0);
            for (const stamp of readStamps(e.text)) {
              turn.lags.push(now - stamp);
              if (!seen[e.side]) turn.firstLags.push(now - stamp);
              seen[e.side] = true;
            }
          }
          apply(e);
        },
        join: () => {
          void socket.emitWithAck('battle:join', { battleId }).then((res) => {
            if (!res.ok) return fail(`join ${res.error.code}`);
            snapshot = res.data;
            for (const side of ['a', 'b'] as const) {
              if (!seen[side] && snapshot.sides[side].text) {
                seen[side] = true;
                turn.firstMissed += 1;
                turn.firstTextMs.push(performance.now() - t0);
              }
            }
            for (const e of buffered.splice(0)) apply(e);
            check();
          });
        },
      };
      if (socket.connected) current.join();
    });
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
    return Promise.race([done, timer]);
  };
  return { follow, close: () => socket.close() };
}

async function one(i: number): Promise<void> {
  const first = perTurn[0]!;
  const t0 = performance.now();
  const created = await ask<CreateBattleResponse>('/api/battles', { tool: 'anything-question', text: `Crowd question ${i}`, lang: 'en' }, first);
  if (created.status !== 202) return fail(`post ${created.status}`);
  const { battleId, voteToken } = created.body;
  const view = viewer();
  try {
    if ((await view.follow(battleId, first, t0)) !== 'done') return fail('timeout');
    for (let n = 2; n <= turns; n += 1) {
      const turn = perTurn[n - 1]!;
      const asked0 = performance.now();
      const asked = await ask<FollowUpResponse>(`/api/battles/${battleId}/turns`, { text: `Follow-up ${n} of crowd question ${i}`, voteToken }, turn);
      if (asked.status !== 202) {
        const code = (asked.body as unknown as { error?: { code?: string } }).error?.code ?? '';
        return fail(`turn post ${asked.status} ${code}`.trim());
      }
      if ((await view.follow(asked.body.turn.battleId, turn, asked0)) !== 'done') return fail(`timeout (turn ${n})`);
    }
  } finally {
    view.close();
  }
  finished += 1;
  const vote = await post(`/api/battles/${battleId}/vote`, { winner: 'a', voteToken });
  if (vote.status === 200) voted += 1;
}

await Promise.all(Array.from({ length: battles }, (_, i) => one(i).catch((err: unknown) => fail(`error ${(err as Error).message}`))));
const [first] = perTurn as [TurnLoad];
const lags = perTurn.flatMap((t) => t.lags);
const result = {
  battles,
  finished,
  voted,
  firstMissed: first.firstMissed,
  tokens: lags.length,
  firstLags: first.firstLags,
  firstTextMs: first.firstTextMs,
  lags,
  postMs: first.postMs,
  failures,
  ...(turns > 1 ? { turns: perTurn } : {}),
};
// Exit only once the result is written: stdout to a pipe is asynchronous, and a large result would be cut.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
