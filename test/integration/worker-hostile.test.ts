import { BATTLE_QUEUE, bullPrefix, LEADERBOARD_QUEUE, MAINTENANCE_QUEUE, redisKeys, RUN_BATTLE_JOB } from '@duet/contracts';
import type { CreateBattleResponse } from '@duet/contracts';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

describe('a worker process fed garbage through Redis', () => {
  let duet: TestDuet;
  let worker: WorkerProcess;

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
    worker = spawnWorkerProcess(duet.env);
    await worker.ready;
  });
  afterAll(async () => {
    await worker?.stop();
    await duet?.close();
  });

  it('fails malformed jobs and ignores junk on its channel, and still runs battles', async () => {
    const keys = redisKeys(duet.prefix);
    for (const junk of ['', 'not a uuid', '\u0000', 'x'.repeat(100_000), '{"battleId":1}']) {
      await duet.redis.publish(keys.cancelChannel, junk);
    }
    const prefix = bullPrefix(duet.prefix);
    const battles = new Queue(BATTLE_QUEUE, { connection: duet.redis, prefix });
    const payloads: unknown[] = [{}, { battleId: 'nope' }, { battleId: 42 }, null, 'text', [1, 2], { battleId: '00000000-0000-0000-0000-000000000000' }];
    const jobs = await Promise.all(payloads.map((data, i) => battles.add(RUN_BATTLE_JOB, data as never, { jobId: `junk-${i}`, attempts: 1 })));
    for (const name of [LEADERBOARD_QUEUE, MAINTENANCE_QUEUE]) {
      const q = new Queue(name, { connection: duet.redis, prefix });
      await q.add('whatever', { any: 'thing' });
      await q.close();
    }
    // Malformed payloads fail; a well-formed id of no battle is dropped.
    await waitFor(async () => (await Promise.all(jobs.map((j) => battles.getJobState(j.id!)))).every((s) => s === 'failed' || s === 'completed'), {
      what: 'the junk jobs to be settled',
    });
    expect(await battles.getJobState('junk-6')).toBe('completed');
    expect(await battles.getJobState('junk-1')).toBe('failed');
    await battles.close();

    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Still there?', lang: 'en' });
    const viewer = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
    await viewer.join();
    const final = await viewer.finished(30_000);
    expect(final.sides.a.state).toBe('done');
    expect(final.sides.b.state).toBe('done');
    expect(worker.child.exitCode).toBeNull();
    // Every junk job was logged as failed without a handler of the worker's own throwing.
    expect(worker.output()).not.toMatch(/TypeError|Cannot read properties/);
    viewer.socket.disconnect();
  });
});
