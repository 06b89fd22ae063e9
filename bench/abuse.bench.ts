/**
 * What floods of Socket.IO traffic from one client do to a gateway: its memory, the latency of an
 * ordinary history read meanwhile, and how many of the abusive requests get through. The gateway
 * runs as its own process (optionally from another checkout, `--root`, to compare before and
 * after); the attacker and the reader run here. Traffic goes to 127.0.0.1 only, in bounded loops.
 *
 *   npx tsx bench/abuse.bench.ts [--joins 20000] [--root ../duet-before]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { CreateBattleResponse } from '@duet/contracts';
import { io } from 'socket.io-client';
import { postJson } from '../test/helpers/api.ts';
import type { DuetSocket } from '../test/helpers/battle-viewer.ts';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';

const { values } = parseArgs({
  options: {
    joins: { type: 'string', default: '20000' },
    rooms: { type: 'string', default: '5000' },
    sockets: { type: 'string', default: '300' },
    cancels: { type: 'string', default: '1000' },
    root: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const scale = values.quick ? 0.05 : 1;
const JOINS = Math.round(Number(values.joins) * scale);
const ROOMS = Math.round(Number(values.rooms) * scale);
const SOCKETS = Math.round(Number(values.sockets) * (values.quick ? 0.2 : 1));
const CANCELS = Math.round(Number(values.cancels) * scale);

const gateway = await startGatewayProcess({ root: values.root });
const pid = gateway.child.pid!;
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

const connect = (): Promise<DuetSocket | null> =>
  new Promise((resolve) => {
    const s: DuetSocket = io(gateway.url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5_000 });
    s.once('connect', () => resolve(s));
    s.once('connect_error', () => {
      s.close();
      resolve(null);
    });
  });

/** Times `GET /api/tools/:slug/history` while `during` runs. */
async function readsDuring(during: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void during.finally(() => {
    done = true;
  });
  while (!done || times.length < 5) {
    const t0 = performance.now();
    await fetch(`${gateway.url}/api/tools/anything-question/history`).then((r) => r.arrayBuffer());
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return times;
}

const created = await postJson<CreateBattleResponse>(`${gateway.url}/api/battles`, { tool: 'anything-question', text: 'Bench', lang: 'en' });
const battleId = created.body.battleId;
const idle = await readsDuring(Promise.resolve());
const rssBefore = rssMb();

// 1. Joins over 4 sockets: half to a real battle, half to random ids.
const joiners = (await Promise.all(Array.from({ length: 4 }, connect))).filter((s): s is DuetSocket => s !== null);
let joinedOk = 0;
let refused = 0;
const flood = Promise.all(
  joiners.map(async (s, k) => {
    const mine = Math.floor(JOINS / joiners.length);
    await Promise.all(
      Array.from({ length: mine }, async (_, i) => {
        const id = (i + k) % 2 ? battleId : randomUUID();
        const res = await s.timeout(30_000).emitWithAck('battle:join', { battleId: id }).catch(() => null);
        if (res?.ok) joinedOk += 1;
        else refused += 1;
      }),
    );
  }),
);
const during = await readsDuring(flood);
const rssAfterJoins = rssMb();

// 2. Rooms on one socket: as many distinct battles as it will take, as fast as it can ask.
const targets: string[] = [];
for (let i = 0; i < ROOMS; i += 20) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(20, ROOMS - i) }, () =>
      postJson<CreateBattleResponse>(`${gateway.url}/api/battles`, { tool: 'quiz-solving', text: 'Room', lang: 'en' }),
    ),
  );
  targets.push(...batch.map((r) => r.body.battleId));
}
const roomer = await connect();
let rooms = 0;
let roomerCutOff = false;
// Until the gateway cuts the socket off (it does to one that keeps going after being refused).
for (let i = 0; roomer && i < ROOMS; i++) {
  if (!roomer.connected) {
    roomerCutOff = true;
    break;
  }
  const res = await roomer.timeout(5_000).emitWithAck('battle:join', { battleId: targets[i]! }).catch(() => null);
  if (res?.ok) rooms += 1;
}
roomer?.close();
// 3. Sockets from one address.
const many = await Promise.all(Array.from({ length: SOCKETS }, connect));
const openSockets = many.filter(Boolean).length;
for (const s of many) s?.close();
// 4. Cancels with a wrong token, as fast as one socket can send them.
let cancelRefusedByLimit = 0;
const canceller = await connect();
if (canceller) {
  await Promise.all(
    Array.from({ length: CANCELS }, async () => {
      const res = await canceller.timeout(10_000).emitWithAck('battle:cancel', { battleId, voteToken: 'x'.repeat(43) }).catch(() => null);
      if (res && !res.ok && res.error.code === 'rate_limited') cancelRefusedByLimit += 1;
    }),
  );
}
const alive = gateway.exit() === null;
for (const s of [...joiners, canceller]) s?.close();
await gateway.stop();

const figures = {
  root: values.root ?? '.',
  joins: JOINS,
  joinsAnswered: joinedOk,
  joinsRefused: refused,
  rssBeforeMb: Math.round(rssBefore),
  rssAfterJoinsMb: Math.round(rssAfterJoins),
  historyIdleP50Ms: Math.round(pct(idle, 50)),
  historyDuringFloodP50Ms: Math.round(pct(during, 50)),
  historyDuringFloodP99Ms: Math.round(pct(during, 99)),
  roomsOnOneSocket: rooms,
  roomsTried: ROOMS,
  roomSocketCutOff: roomerCutOff,
  socketsOpenFromOneAddress: openSockets,
  socketsTried: SOCKETS,
  cancelsRateLimited: cancelRefusedByLimit,
  cancelsTried: CANCELS,
  gatewayAlive: alive,
};
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · node ${process.version} · gateway from ${figures.root}`);
console.log('\n| attack | figure |\n|---|---|');
console.log(`| ${JOINS} battle:join over 4 sockets | RSS ${figures.rssBeforeMb} → ${figures.rssAfterJoinsMb} MB; ${joinedOk} answered with a snapshot, ${refused} refused |`);
console.log(`| history read meanwhile | p50 ${figures.historyDuringFloodP50Ms} ms, p99 ${figures.historyDuringFloodP99Ms} ms (idle p50 ${figures.historyIdleP50Ms} ms) |`);
console.log(`| ${ROOMS} rooms on one socket | ${rooms} joined${roomerCutOff ? ', then the socket was cut off' : ''} |`);
console.log(`| ${SOCKETS} sockets from one address | ${openSockets} open |`);
console.log(`| ${CANCELS} cancels with a wrong token on one socket | ${cancelRefusedByLimit} refused as rate_limited |`);
console.log(`| gateway still running | ${alive} |`);
console.log(JSON.stringify(figures));
process.exit(0);
