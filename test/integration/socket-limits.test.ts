// Over 300 lines on purpose: every per-socket and per-address limit, against two gateway processes (with and without a trusted proxy).
import { randomUUID } from 'node:crypto';
import { redisKeys, ZErrorResponseSchema } from '@duet/contracts';
import type { CreateBattleResponse } from '@duet/contracts';
import fc from 'fast-check';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { waitFor } from '../helpers/wait.ts';

const CONFIGURED_ORIGIN = 'https://duet.example';

/** Opens a Socket.IO connection over WebSocket; answers the socket, or the connect error's message. */
function tryConnect(url: string, headers: Record<string, string> = {}): Promise<{ socket: DuetSocket } | { error: string }> {
  const socket: DuetSocket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: headers });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (err) => {
      socket.disconnect();
      resolve({ error: err.message });
    });
  });
}

/**
 * Connects once the address has a place free: sockets earlier tests closed are released by the
 * gateway when it sees them go, which may be a moment after the client let go.
 */
async function connectWhenFree(url: string, headers: Record<string, string> = {}): Promise<DuetSocket> {
  return waitFor(
    async () => {
      const result = await tryConnect(url, headers);
      if ('socket' in result) return result.socket;
      // Full at the Socket.IO level says so; full at the Engine.IO level (the address's sessions,
      // checked before the WebSocket upgrade) can only refuse the upgrade: "websocket error".
      if (result.error === 'too_many_connections' || result.error === 'websocket error') return undefined;
      throw new Error(`could not connect: ${result.error}`);
    },
    { intervalMs: 50, what: 'a free socket place' },
  );
}

type AckResult = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } };
const codeOf = (r: AckResult) => (r.ok ? 'ok' : r.error.code);

const battleCount = async (gw: GatewayProcess) => (await gw.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n;

/** `POST /api/battles` for a valid question, from a claimed client address. */
async function createBattle(gw: GatewayProcess, forwardedFor?: string) {
  const res = await fetch(`${gw.url}/api/battles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ tool: 'quiz-solving', text: 'What is 2 + 2?', lang: 'en' }),
  });
  return { status: res.status, body: (await res.json()) as CreateBattleResponse & Partial<typeof ZErrorResponseSchema._output> };
}

const expectAlive = async (gw: GatewayProcess) => {
  expect(gw.exit(), gw.output().slice(-4000)).toBeNull();
  expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
};

let direct: GatewayProcess;
let behindProxy: GatewayProcess;

beforeAll(async () => {
  [direct, behindProxy] = await Promise.all([
    startGatewayProcess({
      env: {
        SOCKET_MAX_PER_IP: '2',
        SOCKET_MAX_ROOMS: '4',
        CORS_ORIGINS: CONFIGURED_ORIGIN,
        RATE_LIMIT_BATTLES_PER_MINUTE: '3',
      },
    }),
    startGatewayProcess({
      env: {
        TRUST_PROXY: 'loopback',
        SOCKET_MAX_PER_IP: '2',
        RATE_LIMIT_BATTLES_PER_MINUTE: '3',
        RATE_LIMIT_CANCELS_PER_MINUTE: '3',
      },
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([direct?.stop(), behindProxy?.stop()]);
});

describe('socket and address limits of a gateway reached directly (TRUST_PROXY unset)', () => {
  it('refuses a third socket from one address with too_many_connections whatever X-Forwarded-For says, and takes one again once a socket leaves', async () => {
    const first = await connectWhenFree(direct.url);
    const second = await connectWhenFree(direct.url);
    for (const forwardedFor of [undefined, '203.0.113.1', '198.51.100.2, 203.0.113.3']) {
      const third = await tryConnect(direct.url, forwardedFor ? { 'x-forwarded-for': forwardedFor } : {});
      expect(third, `X-Forwarded-For: ${forwardedFor}`).toEqual({ error: 'too_many_connections' });
    }
    first.disconnect();
    const again = await connectWhenFree(direct.url);
    expect(again.connected).toBe(true);
    second.disconnect();
    again.disconnect();
    await expectAlive(direct);
  });

  it('refuses Engine.IO sessions from one address beyond twice its socket limit, with or without a socket, until one ends', async () => {
    const handshake = () => rawRequest(direct.url, { method: 'GET', path: '/socket.io/?EIO=4&transport=polling' });
    const open = () =>
      waitFor(
        async () => {
          const res = await handshake();
          return res.status === 200 ? (JSON.parse(res.body.slice(1)) as { sid: string }).sid : undefined;
        },
        { intervalMs: 50, what: 'a free session place' },
      );
    const end = (sid: string) =>
      rawRequest(direct.url, { method: 'POST', path: `/socket.io/?EIO=4&transport=polling&sid=${sid}`, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: '1' });
    // Sessions that only shook hands: none of them opened a socket.
    const sids = [await open(), await open(), await open(), await open()];
    const refused = await handshake();
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ message: 'too_many_connections' });
    expect(await tryConnect(direct.url)).not.toHaveProperty('socket');
    await end(sids.shift()!);
    sids.push(await open());
    for (const sid of sids) await end(sid);
    await expectAlive(direct);
  });

  it('refuses a fifth room on one socket with too_many_rooms, for tools and battles alike, until one is left', async () => {
    const socket = await connectWhenFree(direct.url);
    const send = (event: 'tool:watch' | 'tool:unwatch' | 'battle:join', payload: object) =>
      (socket.timeout(5_000) as unknown as { emitWithAck: (e: string, p: object) => Promise<AckResult> }).emitWithAck(event, payload);
    for (const tool of ['quiz-solving', 'makeLyrics', 'math-solve', 'docent']) expect(codeOf(await send('tool:watch', { tool }))).toBe('ok');
    const refused = await send('tool:watch', { tool: 'rap-lyrics' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'too_many_rooms' } });
    expect(codeOf(await send('battle:join', { battleId: randomUUID() }))).toBe('too_many_rooms');
    // A room it is in already takes no new place.
    expect(codeOf(await send('tool:watch', { tool: 'quiz-solving' }))).toBe('ok');
    expect(codeOf(await send('tool:unwatch', { tool: 'docent' }))).toBe('ok');
    expect(codeOf(await send('tool:watch', { tool: 'rap-lyrics' }))).toBe('ok');
    socket.disconnect();
    await expectAlive(direct);
  });

  it('answers battle joins beyond five a second with rate_limited, and takes them again once the second is over', async () => {
    const socket = await connectWhenFree(direct.url);
    const join = () => socket.timeout(5_000).emitWithAck('battle:join', { battleId: randomUUID() }) as Promise<AckResult>;
    // One after another (each leaves its room before the next, so the room limit stays out of it).
    const burst: string[] = [];
    for (let i = 0; i < 8; i++) burst.push(codeOf(await join()));
    // Unknown battles: a join the budget lets through answers not_found.
    expect(burst.filter((c) => c === 'not_found')).toHaveLength(5);
    expect(burst.filter((c) => c === 'rate_limited')).toHaveLength(3);
    const later = await waitFor(
      async () => {
        const code = codeOf(await join());
        return code === 'rate_limited' ? undefined : code;
      },
      { intervalMs: 100, what: 'the join budget to refill' },
    );
    expect(later).toBe('not_found');
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });

  it('answers battle cancels beyond two a second on one socket with rate_limited', async () => {
    const socket = await connectWhenFree(direct.url);
    const cancel = () => socket.timeout(5_000).emitWithAck('battle:cancel', { battleId: randomUUID(), voteToken: 'not-the-token' }) as Promise<AckResult>;
    const burst = (await Promise.all(Array.from({ length: 5 }, cancel))).map(codeOf);
    expect(burst.filter((c) => c === 'not_found')).toHaveLength(2);
    expect(burst.filter((c) => c === 'rate_limited')).toHaveLength(3);
    socket.disconnect();
  });

  it('cuts off a socket that keeps flooding events after being told to slow down, unknown events included', async () => {
    const socket = await connectWhenFree(direct.url);
    let reason: string | undefined;
    socket.once('disconnect', (why) => (reason = why));
    const untyped = socket as unknown as { timeout: (ms: number) => { emitWithAck: (e: string, ...args: unknown[]) => Promise<AckResult> } };
    const answers = Array.from({ length: 150 }, (_, i) =>
      untyped
        .timeout(10_000)
        .emitWithAck('no:such:event', i)
        .then(codeOf, () => 'lost'),
    );
    expect(await waitFor(() => reason, { timeoutMs: 10_000, what: 'the gateway to cut the flooding socket off' })).toBe('io server disconnect');
    const codes = await Promise.all(answers);
    expect(codes).toContain('not_found');
    expect(codes).toContain('rate_limited');
    expect(codes).toContain('lost');
    await expectAlive(direct);
  });

  it('refuses a socket handshake whose Origin is another site (403 when polling, a refused WebSocket upgrade), and accepts its own origin, a configured origin and no Origin', async () => {
    const handshake = (headers: Record<string, string>) => rawRequest(direct.url, { method: 'GET', path: '/socket.io/?EIO=4&transport=polling', headers });
    const upgrade = (origin: string) =>
      rawRequest(direct.url, {
        method: 'GET',
        path: '/socket.io/?EIO=4&transport=websocket',
        headers: { origin, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
    // A polling handshake opens an Engine.IO session that holds one of the address's places until it
    // times out (45 s): each accepted one is closed at once (a close packet), as a browser would.
    const closeSession = (handshakeBody: string, headers: Record<string, string>) =>
      rawRequest(direct.url, {
        method: 'POST',
        path: `/socket.io/?EIO=4&transport=polling&sid=${(JSON.parse(handshakeBody.slice(1)) as { sid: string }).sid}`,
        headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' },
        body: '1',
      });
    const own = `http://127.0.0.1:${direct.port}`;
    for (const origin of ['https://evil.example', 'null', `http://localhost:${direct.port}`, `${CONFIGURED_ORIGIN}.evil.example`, `http://127.0.0.1:${direct.port + 1}`]) {
      const polling = await handshake({ origin });
      expect(polling.status, origin).toBe(403);
      expect(JSON.parse(polling.body), origin).toMatchObject({ message: 'origin_not_allowed' });
      // Engine.IO answers every refused upgrade with 400; the reason is the same.
      const refusedUpgrade = await upgrade(origin);
      expect({ status: refusedUpgrade.status, body: refusedUpgrade.body }, origin).toEqual({ status: 400, body: 'origin_not_allowed' });
      expect(await tryConnect(direct.url, { origin })).toMatchObject({ error: expect.any(String) });
    }
    for (const headers of [{ origin: own }, { origin: CONFIGURED_ORIGIN }, {}] as Array<Record<string, string>>) {
      const polling = await handshake(headers);
      expect(polling.status, JSON.stringify(headers)).toBe(200);
      expect(polling.body.startsWith('0{')).toBe(true);
      expect((await closeSession(polling.body, headers)).status).toBe(200);
      if (headers.origin) expect((await upgrade(headers.origin)).status).toBe(101);
      const socket = await connectWhenFree(direct.url, headers);
      expect(socket.connected).toBe(true);
      socket.disconnect();
    }
    await expectAlive(direct);
  });

  it('keeps the per-address battle limit however X-Forwarded-For rotates, storing nothing for the refused', async () => {
    const before = await battleCount(direct);
    const answers = [];
    for (let i = 1; i <= 6; i++) answers.push(await createBattle(direct, `203.0.113.${i}`));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 429, 429, 429]);
    for (const refused of answers.slice(3)) {
      expect(ZErrorResponseSchema.safeParse(refused.body).success).toBe(true);
      expect(refused.body.error?.code).toBe('rate_limited');
    }
    expect(await battleCount(direct)).toBe(before + 3);
  });
});

describe('address limits behind a trusted proxy (TRUST_PROXY=loopback, the test connects from 127.0.0.1)', () => {
  it('believes X-Forwarded-For for the battle limit: each forwarded address has its own three battles a minute', async () => {
    const before = await battleCount(behindProxy);
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await createBattle(behindProxy, '203.0.113.10')).status);
    expect(first).toEqual([202, 202, 202, 429]);
    expect((await createBattle(behindProxy, '203.0.113.11')).status).toBe(202);
    expect(await battleCount(behindProxy)).toBe(before + 4);
  });

  it('counts sockets by forwarded address', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.20' };
    const sockets = [await connectWhenFree(behindProxy.url, headers), await connectWhenFree(behindProxy.url, headers)];
    expect(await tryConnect(behindProxy.url, headers)).toEqual({ error: 'too_many_connections' });
    const other = await tryConnect(behindProxy.url, { 'x-forwarded-for': '198.51.100.21' });
    expect(other).toHaveProperty('socket');
    for (const s of [...sockets, 'socket' in other ? other.socket : null]) s?.disconnect();
    await expectAlive(behindProxy);
  });

  it('answers any X-Forwarded-For, however malformed, below 500 over HTTP and with a socket or too_many_connections over Socket.IO', async () => {
    const forwardedFor = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('unknown', '', ' ', '999.1.1.1', '::ffff:1.2.3.4', '[::1]:80', '1.2.3.4:5')), { maxLength: 4 }).map((a) => a.join(', ')),
    );
    await fc.assert(
      fc.asyncProperty(forwardedFor, async (xff) => {
        const res = await fetch(`${behindProxy.url}/api/battles/${randomUUID()}/cancel`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
          body: JSON.stringify({ voteToken: 'not-the-token' }),
        });
        expect([404, 429], xff).toContain(res.status);
        expect(ZErrorResponseSchema.safeParse(await res.json()).success).toBe(true);
        const socket = await tryConnect(behindProxy.url, { 'x-forwarded-for': xff });
        if ('socket' in socket) socket.socket.disconnect();
        else expect(socket.error, xff).toBe('too_many_connections');
      }),
      { numRuns: 60 },
    );
    await expectAlive(behindProxy);
  });

  it('answers the fourth HTTP cancel in a minute from one address with 429, cancelling nothing', async () => {
    const created = await createBattle(behindProxy, '203.0.113.30');
    expect(created.status).toBe(202);
    const { battleId, voteToken } = created.body;
    const cancelled = redisKeys(behindProxy.prefix).battleCancelled(battleId);
    const cancel = async (token: string, forwardedFor: string) => {
      const res = await fetch(`${behindProxy.url}/api/battles/${battleId}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ voteToken: token }),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    for (let i = 0; i < 3; i++) expect((await cancel('not-the-token', '203.0.113.31')).status).toBe(403);
    const limited = await cancel(voteToken, '203.0.113.31');
    expect(limited.status).toBe(429);
    expect(ZErrorResponseSchema.parse(limited.body).error.code).toBe('rate_limited');
    expect(await behindProxy.redis.exists(cancelled)).toBe(0);
    // Another address still may: the limit, not the token, refused it.
    expect((await cancel(voteToken, '203.0.113.32')).status).toBe(202);
    expect(await behindProxy.redis.exists(cancelled)).toBe(1);
    await expectAlive(behindProxy);
  });
});
