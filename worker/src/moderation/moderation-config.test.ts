import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../config.ts';

const fakeRoster = JSON.stringify([
  { id: 'fake:gpt', label: 'Fake GPT', provider: 'openai', model: 'gpt-fake', family: 'gpt', baseURL: 'http://127.0.0.1:9/v1' },
  { id: 'fake:claude', label: 'Fake Claude', provider: 'anthropic', model: 'claude-fake', family: 'claude' },
]);

describe('moderation settings', () => {
  it('uses the word list when no OpenAI key is configured', () => {
    expect(loadWorkerConfig({}).moderation).toEqual({ openai: null, intervalMs: 60_000, batchSize: 50 });
  });

  it('uses OpenAI’s endpoint through the battles’ OpenAI connection when a key is configured', () => {
    expect(loadWorkerConfig({ OPENAI_API_KEY: 'sk-one', OPENAI_BASE_URL: 'https://proxy.example/v1' }).moderation.openai).toEqual({
      apiKey: 'sk-one',
      baseURL: 'https://proxy.example/v1',
      model: 'omni-moderation-latest',
      timeoutMs: 10_000,
    });
    // A JSON roster's OpenAI model brings its own base URL.
    expect(loadWorkerConfig({ DUET_MODELS: fakeRoster, OPENAI_API_KEY: 'sk-two' }).moderation.openai).toMatchObject({
      apiKey: 'sk-two',
      baseURL: 'http://127.0.0.1:9/v1',
    });
  });

  it('lets MODERATION_* settings win, and MODERATION=wordlist turn the endpoint off', () => {
    const env = {
      OPENAI_API_KEY: 'sk-one',
      MODERATION_API_KEY: 'sk-mod',
      MODERATION_BASE_URL: 'https://mod.example/v1',
      MODERATION_MODEL: 'text-moderation-latest',
      MODERATION_INTERVAL_MS: '500',
      MODERATION_BATCH_SIZE: '7',
    };
    expect(loadWorkerConfig(env).moderation).toEqual({
      openai: { apiKey: 'sk-mod', baseURL: 'https://mod.example/v1', model: 'text-moderation-latest', timeoutMs: 10_000 },
      intervalMs: 500,
      batchSize: 7,
    });
    expect(loadWorkerConfig({ ...env, MODERATION: 'wordlist' }).moderation.openai).toBeNull();
  });

  it('refuses MODERATION=openai without a key, and a bad moderation value', () => {
    expect(() => loadWorkerConfig({ MODERATION: 'openai' })).toThrow(/MODERATION: `openai` needs MODERATION_API_KEY or OPENAI_API_KEY/);
    expect(() => loadWorkerConfig({ MODERATION: 'maybe', MODERATION_BATCH_SIZE: '0' })).toThrow(/MODERATION[\s\S]*MODERATION_BATCH_SIZE/);
  });
});
