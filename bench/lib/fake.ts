import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../../test/fakes/fake-llm-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface FakeProcess {
  url: string;
  openaiBaseURL: string;
  apiKey: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Starts the fake LLM server in a process of its own, every model answering with `scenario`. */
export async function spawnFake(scenario: Partial<Scenario>): Promise<FakeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fakes/fake-llm-process.ts'], {
    cwd: ROOT,
    env: { ...process.env, FAKE_SCENARIO: JSON.stringify(scenario) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const info = JSON.parse(line) as { url: string; apiKey: string; pid: number };
  return {
    ...info,
    openaiBaseURL: `${info.url}/v1`,
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
