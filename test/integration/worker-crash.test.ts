import type { CreateBattleResponse } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';

const FAST = 'This answer finished before the crash.';
const SLOW = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');

describe('a worker process that crashes mid-battle', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({
      noWorker: true,
      env: {
        ...fakeRosterEnv(fake, { gpt: 'gpt-fast', claude: 'claude-slow' }),
        WORKER_LOCK_DURATION_MS: '1500',
        WORKER_STALLED_INTERVAL_MS: '1000',
        BATTLE_LEASE_MS: '1500',
      },
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await duet?.close();
    await fake?.close();
  });

  it('loses no finished answer: another worker resumes the battle and replaces the partial text', async () => {
    fake.scenario('gpt-fast', { text: FAST, tokensPerSecond: 0 });
    fake.scenario('claude-slow', { text: SLOW, tokensPerSecond: 25 });
    const first = spawnWorkerProcess(duet.env);
    workers.push(first);
    await first.ready;

    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Go', lang: 'en' });
    const battleId = res.body.battleId;
    const { rows } = await duet.db.pool.query('SELECT model_a FROM battles WHERE id = $1', [battleId]);
    const fastSide = rows[0].model_a === 'fake:gpt' ? 'a' : 'b';
    const slowSide = fastSide === 'a' ? 'b' : 'a';

    const viewer = new BattleViewer(await connectSocket(duet.url), battleId);
    await viewer.join();
    await waitFor(() => viewer.snapshot?.sides[fastSide].state === 'done' && viewer.snapshot.sides[slowSide].text.length > 20, {
      what: 'one side done and the other streaming',
    });
    const partial = viewer.snapshot!.sides[slowSide].text;
    await first.crash();

    const second = spawnWorkerProcess(duet.env);
    workers.push(second);
    await second.ready;
    const final = await viewer.finished(30_000);
    viewer.socket.disconnect();

    // The stored side was kept, not asked again; the interrupted side started over, shown once.
    expect(final.sides[fastSide].text).toBe(FAST);
    expect(final.sides[slowSide].text).toBe(SLOW);
    expect(final.sides[slowSide].text.startsWith(partial)).toBe(true);
    expect(fake.requests.filter((r) => r.model === 'gpt-fast')).toHaveLength(1);
    expect(fake.requests.filter((r) => r.model === 'claude-slow')).toHaveLength(2);
    expect(viewer.events.some((e) => e.type === 'delta' && e.side === slowSide && e.reset)).toBe(true);

    const answers = await duet.db.pool.query('SELECT side, text, finish_reason FROM answers WHERE battle_id = $1 ORDER BY side', [battleId]);
    expect(answers.rows.map((r) => [r.side, r.text, r.finish_reason])).toEqual(
      (['a', 'b'] as const).map((s) => [s, s === fastSide ? FAST : SLOW, 'stop']),
    );

    // A viewer arriving now sees the resumed answer, not the stale partial one plus the new one.
    const late = await new BattleViewer(await connectSocket(duet.url), battleId).join();
    expect(late.sides[slowSide].text).toBe(SLOW);
    const vote = await postJson(`${duet.url}/api/battles/${battleId}/vote`, { winner: fastSide, voteToken: res.body.voteToken });
    expect(vote.status).toBe(200);
  }, 60_000);
});
