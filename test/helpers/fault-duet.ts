import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet } from './duet.ts';
import { startTestDuet } from './duet.ts';

/**
 * What a fault test starts first: the fake provider, and a gateway without a worker (the test
 * starts worker processes, to stop or strand them) whose two models are the fake's `gpt-x` and
 * `claude-x`, on the Redis or PostgreSQL of the test's own, with `env` over the defaults.
 */
export async function startFaultDuet(opts: { redisUrl?: string; pgUrl?: string; env?: Record<string, string> }): Promise<{ fake: FakeLlmServer; duet: TestDuet }> {
  const fake = await startFakeLlmServer();
  try {
    const duet = await startTestDuet({
      noWorker: true,
      redisUrl: opts.redisUrl,
      pgUrl: opts.pgUrl,
      env: { ...fakeRosterEnv(fake, { gpt: 'gpt-x', claude: 'claude-x' }), ...opts.env },
    });
    return { fake, duet };
  } catch (err) {
    await fake.close();
    throw err;
  }
}
