/**
 * Votes through the HTTP API: `CONCURRENCY` voters at once, each voting on the next fresh battle
 * (`FROM` to `TO`, as `seedVotes` stored them) as soon as its last vote was answered, vote i to
 * gateway i mod n of `GATEWAY_URL` (see `gatewayTargets`), for
 * `WARMUP_MS` and then `DURATION_MS`. Vote i comes from address i mod `VOTERS` (`X-Forwarded-For`,
 * believed from loopback), as visitors behind a load balancer. Prints a `LoopResult`.
 */
import http from 'node:http';
import { closedLoop } from './closed-loop.ts';
import type { GatewayTarget } from './gateway-targets.ts';
import { gatewayTargets } from './gateway-targets.ts';
import { freshBattle } from './vote-seed.ts';

const concurrency = Number(process.env.CONCURRENCY);
const targets = gatewayTargets(concurrency);
const to = Number(process.env.TO);
const voters = Number(process.env.VOTERS ?? 10_000);
let next = Number(process.env.FROM);
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const WINNERS = ['a', 'b', 'a', 'b', 'tie', 'both_bad'] as const;

/** POSTs JSON and reads the whole answer; resolves with the status. */
const post = ({ host, port, agent }: GatewayTarget, path: string, body: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(
      { host, port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const result = await closedLoop({
  concurrency,
  warmupMs: Number(process.env.WARMUP_MS),
  durationMs: Number(process.env.DURATION_MS),
  call: async () => {
    if (next > to) return null;
    const i = next++;
    const { id, voteToken } = freshBattle(i);
    const status = await post(targets[i % targets.length]!, `/api/battles/${id}/vote`, JSON.stringify({ winner: WINNERS[i % WINNERS.length], voteToken }), {
      'x-forwarded-for': address(i % voters),
    });
    return status === 200 ? true : `HTTP ${status}`;
  },
});
for (const t of targets) t.agent.destroy();
console.log(JSON.stringify(result));
