/**
 * Battles posted at a steady rate: one every 1000/RATE ms for SECONDS whatever the answers take
 * (an open loop, as a crowd asks), each from one of 1,000 addresses (`X-Forwarded-For`, the gateway
 * trusting loopback). With CHALLENGES=1 each carries a solved challenge, fetched and solved before
 * the clock starts. Prints `{ postMs, statuses, lateMs }`: each post's answer time, the count per
 * status, and how late the last post left against its schedule.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import pLimit from 'p-limit';
import { openLoop } from './open-loop.ts';

const url = process.env.GATEWAY_URL!;
const rate = Number(process.env.RATE);
const seconds = Number(process.env.SECONDS);
const total = Math.round(rate * seconds);
const ADDRESSES = 1_000;

async function solved(): Promise<string> {
  const challenge = (await (await fetch(`${url}/api/challenge`)).json()) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const limit = pLimit(16);
const challenges = process.env.CHALLENGES === '1' ? await Promise.all(Array.from({ length: total }, () => limit(solved))) : [];

const postMs: number[] = [];
const statuses: Record<string, number> = {};
const post = async (i: number) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': `10.1.${(i % ADDRESSES) >> 8}.${(i % ADDRESSES) & 255}` };
  if (challenges[i]) headers['x-duet-challenge'] = challenges[i];
  const t0 = performance.now();
  const res = await fetch(`${url}/api/battles`, { method: 'POST', headers, body: JSON.stringify({ tool: 'anything-question', text: `Admission ${i}`, lang: 'en' }) });
  await res.arrayBuffer();
  postMs.push(performance.now() - t0);
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
};

const { lateMs } = await openLoop(total, rate, post);
console.log(JSON.stringify({ postMs, statuses, lateMs }));
