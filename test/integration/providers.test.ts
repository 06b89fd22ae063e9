// Over 300 lines on purpose: the same contract checked against both providers' real SDKs and wire formats.
/**
 * The OpenAI and Anthropic adapters, through the real SDKs, against the fake LLM server.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelSpec, ProviderKind } from '@duet/contracts';
import { createAnthropicProvider } from '../../worker/src/providers/anthropic.ts';
import { createOpenAIProvider } from '../../worker/src/providers/openai.ts';
import { ProviderError } from '../../worker/src/providers/provider.ts';
import type { ChatRequest, ModelProvider, StreamChunk } from '../../worker/src/providers/provider.ts';
import { defaultAnswer, startFakeLlmServer, tokenize } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';

const TIMEOUT_MS = 5_000;
const ANSWER = 'The quick brown fox jumps over the lazy dog.';
const IMAGE = Buffer.from('not really a png, but bytes all the same');

let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlmServer({ apiKey: 'sk-fake-duet' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

function spec(provider: ProviderKind, model: string, baseURL?: string): ModelSpec {
  return { id: `${provider}:${model}`, label: model, provider, model, family: 'other', weight: 1, baseURL };
}

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    system: 'Answer briefly.',
    user: 'Say something nice.',
    maxTokens: 256,
    signal: new AbortController().signal,
    context: { tool: 'ask', lang: 'en', inputs: {}, text: 'Say something nice.', hasImage: false },
    ...overrides,
  };
}

/** What a stream yielded, and what it threw (if anything). */
interface Outcome {
  chunks: StreamChunk[];
  text: string;
  error: unknown;
}

async function run(provider: ModelProvider, req: ChatRequest, onChunk?: (c: StreamChunk) => void): Promise<Outcome> {
  const chunks: StreamChunk[] = [];
  let error: unknown;
  try {
    for await (const chunk of provider.stream(req)) {
      chunks.push(chunk);
      onChunk?.(chunk);
    }
  } catch (err) {
    error = err;
  }
  const text = chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { chunks, text, error };
}

function expectProviderError(error: unknown, code: string, retryable: boolean): ProviderError {
  expect(error).toBeInstanceOf(ProviderError);
  const err = error as ProviderError;
  expect({ code: err.code, retryable: err.retryable }).toEqual({ code, retryable });
  return err;
}

/** A local HTTP server answering with `handler`, as a provider's host would: its origin, and how to close it. */
async function startProviderHost(handler: RequestListener): Promise<{ origin: string; close: () => void }> {
  const host = createServer(handler);
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  return {
    origin: `http://127.0.0.1:${(host.address() as AddressInfo).port}`,
    close: () => {
      host.close();
      host.closeAllConnections();
    },
  };
}

interface Adapter {
  name: string;
  model: string;
  create(opts?: { apiKey?: string; baseURL?: string; timeoutMs?: number }): ModelProvider;
}

const ADAPTERS: Adapter[] = [
  {
    name: 'OpenAI',
    model: 'gpt-fake',
    create: (o = {}) =>
      createOpenAIProvider(spec('openai', 'gpt-fake'), {
        apiKey: o.apiKey ?? server.apiKey,
        baseURL: o.baseURL ?? server.openaiBaseURL,
        timeoutMs: o.timeoutMs ?? TIMEOUT_MS,
      }),
  },
  {
    name: 'Anthropic',
    model: 'claude-fake',
    create: (o = {}) =>
      createAnthropicProvider(spec('anthropic', 'claude-fake'), {
        apiKey: o.apiKey ?? server.apiKey,
        baseURL: o.baseURL ?? server.anthropicBaseURL,
        timeoutMs: o.timeoutMs ?? TIMEOUT_MS,
      }),
  },
];

describe.each(ADAPTERS)('$name adapter', (adapter) => {
  /** The adapter's base URL at an origin: OpenAI's ends in `/v1`, Anthropic's is the origin. */
  const baseAt = (origin: string) => (adapter.name === 'OpenAI' ? `${origin}/v1` : origin);

  it('streams the whole answer in order, then usage, then one finish "stop"', async () => {
    server.scenario(adapter.model, { text: ANSWER, ttftMs: 20, tokensPerSecond: 400 });

    const { chunks, error } = await run(adapter.create(), request());

    expect(error).toBeUndefined();
    const texts = chunks.filter((c) => c.type === 'text').map((c) => c.text);
    expect(texts).toEqual(tokenize(ANSWER));
    expect(chunks.filter((c) => c.type === 'usage')).toEqual([{ type: 'usage', inputTokens: 5, outputTokens: 9 }]);
    expect(chunks.filter((c) => c.type === 'finish')).toEqual([{ type: 'finish', reason: 'stop' }]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ model: adapter.model, body: { stream: true, max_tokens: 256 } });
  });

  it('maps a length stop to finish "length"', async () => {
    server.scenario(adapter.model, { finishReason: 'length' });

    const { chunks, text, error } = await run(adapter.create(), request());

    expect(error).toBeUndefined();
    expect(text).toBe(defaultAnswer(adapter.model));
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  it('turns a 429 into a retryable "rate_limited" error, without retrying in the SDK', async () => {
    server.scenario(adapter.model, { failStatus: 429, failTimes: 1 });
    const provider = adapter.create();

    const first = await run(provider, request());
    const err = expectProviderError(first.error, 'rate_limited', true);
    expect(err.status).toBe(429);
    expect(err.message).toContain('Scripted failure'); // the SDK read the provider's error JSON
    expect(first.chunks).toEqual([]);
    expect(server.requests).toHaveLength(1);

    const second = await run(provider, request());
    expect(second.error).toBeUndefined();
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('turns a 500 into a retryable "provider_unavailable" error', async () => {
    server.scenario(adapter.model, { failStatus: 500 });

    const { error } = await run(adapter.create(), request());

    expect(expectProviderError(error, 'provider_unavailable', true).status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('turns a 401 for a wrong key into a final "auth_failed" error', async () => {
    const { error } = await run(adapter.create({ apiKey: 'sk-wrong' }), request());

    expect(expectProviderError(error, 'auth_failed', false).status).toBe(401);
  });

  it('turns a refused connection into a retryable "provider_unavailable" error', async () => {
    const gone = await startFakeLlmServer();
    await gone.close();
    const { error } = await run(adapter.create({ baseURL: baseAt(gone.url) }), request());

    expectProviderError(error, 'provider_unavailable', true);
  });

  it('turns a provider that takes the connection but never answers into a retryable "timeout" error', async () => {
    const silent = await startProviderHost(() => {});
    try {
      const { chunks, error } = await run(adapter.create({ baseURL: baseAt(silent.origin), timeoutMs: 300 }), request());

      expectProviderError(error, 'timeout', true);
      expect(chunks).toEqual([]);
    } finally {
      silent.close();
    }
  });

  it('turns a redirect into a final "bad_request" error, without following it', async () => {
    let asked = 0;
    const moved = await startProviderHost((_req, res) => {
      asked += 1;
      res.writeHead(301, { location: server.url }).end();
    });
    try {
      const { error } = await run(adapter.create({ baseURL: baseAt(moved.origin) }), request());

      expect(expectProviderError(error, 'bad_request', false).status).toBe(301);
      expect(asked).toBe(1);
      expect(server.requests).toHaveLength(0);
    } finally {
      moved.close();
    }
  });

  it('throws "stream_cut" after the partial text when the stream is cut off', async () => {
    server.scenario(adapter.model, { text: ANSWER, cutAfterTokens: 3 });

    const { chunks, text, error } = await run(adapter.create(), request());

    expectProviderError(error, 'stream_cut', false);
    expect(text).toBe(tokenize(ANSWER).slice(0, 3).join(''));
    expect(chunks.some((c) => c.type === 'finish')).toBe(false);
  });

  it('throws "stream_cut" when the stream ends cleanly but without a finish', async () => {
    server.scenario(adapter.model, { text: ANSWER, cutAfterTokens: 2, cutMode: 'end' });

    const { chunks, text, error } = await run(adapter.create(), request());

    expectProviderError(error, 'stream_cut', false);
    expect(text).toBe(tokenize(ANSWER).slice(0, 2).join(''));
    expect(chunks.some((c) => c.type === 'finish')).toBe(false);
  });

  it('ends a hanging stream promptly with finish "cancelled" on abort', async () => {
    server.scenario(adapter.model, { hang: true });
    const controller = new AbortController();

    const outcome = run(adapter.create(), request({ signal: controller.signal }));
    await vi.waitFor(() => expect(server.activeResponses).toBe(1));
    const abortedAt = Date.now();
    controller.abort();
    const { chunks, error } = await outcome;

    expect(error).toBeUndefined();
    expect(chunks).toEqual([{ type: 'finish', reason: 'cancelled' }]);
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    await vi.waitFor(() => expect(server.activeResponses).toBe(0)); // the server saw the client leave
  });

  it('answers an already aborted request with finish "cancelled" and no call', async () => {
    const { chunks, error } = await run(adapter.create(), request({ signal: AbortSignal.abort() }));

    expect(error).toBeUndefined();
    expect(chunks).toEqual([{ type: 'finish', reason: 'cancelled' }]);
    expect(server.requests).toHaveLength(0);
  });

  it('ends mid-answer with the partial text and finish "cancelled" on abort', async () => {
    server.scenario(adapter.model, { text: ANSWER, tokensPerSecond: 50 });
    const controller = new AbortController();

    const { chunks, text, error } = await run(adapter.create(), request({ signal: controller.signal }), (c) => {
      if (c.type === 'text') controller.abort();
    });

    expect(error).toBeUndefined();
    expect(text).toBe(tokenize(ANSWER)[0]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'cancelled' });
    await vi.waitFor(() => expect(server.activeResponses).toBe(0));
  });
});

describe('OpenAI adapter, wire details', () => {
  it('sends system and user messages, usage streaming and the image as a data URL', async () => {
    const provider = ADAPTERS[0]!.create();

    const { error } = await run(provider, request({ image: { mimeType: 'image/png', data: IMAGE } }));

    expect(error).toBeUndefined();
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'gpt-fake',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Say something nice.' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${IMAGE.toString('base64')}` } },
          ],
        },
      ],
    });
  });

  it('serves an openai-compatible model at the base URL of its spec', async () => {
    const model = 'llama3.2:3b';
    const provider = createOpenAIProvider(spec('openai-compatible', model, server.openaiBaseURL), {
      apiKey: server.apiKey,
      timeoutMs: TIMEOUT_MS,
    });

    const { text, chunks, error } = await run(provider, request());

    expect(error).toBeUndefined();
    expect(text).toBe(defaultAnswer(model));
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server.requests[0]).toMatchObject({ path: '/v1/chat/completions', model });
  });
});

describe('Anthropic adapter, wire details', () => {
  it('sends the system prompt apart and the image block before the text', async () => {
    const provider = ADAPTERS[1]!.create();

    const { error } = await run(provider, request({ image: { mimeType: 'image/webp', data: IMAGE } }));

    expect(error).toBeUndefined();
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'claude-fake',
      stream: true,
      system: 'Answer briefly.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: IMAGE.toString('base64') } },
            { type: 'text', text: 'Say something nice.' },
          ],
        },
      ],
    });
  });

  it('accepts a base URL that ends in /v1', async () => {
    const { text, error } = await run(ADAPTERS[1]!.create({ baseURL: `${server.url}/v1/` }), request());

    expect(error).toBeUndefined();
    expect(text).toBe(defaultAnswer('claude-fake'));
    expect(server.requests[0]?.path).toBe('/v1/messages');
  });

  it('fake server: takes the key from x-api-key or a Bearer token, and answers 401 without one', async () => {
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${server.anthropicBaseURL}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
        body: JSON.stringify({ model: 'claude-fake', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
      });

    const auths: Record<string, string>[] = [{ authorization: `Bearer ${server.apiKey}` }, { 'x-api-key': server.apiKey }];
    for (const auth of auths) {
      const res = await post(auth);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const sse = await res.text();
      expect(sse).toMatch(/^event: message_start\ndata: /);
      expect(sse).toContain('event: content_block_delta\ndata: {"type":"content_block_delta"');
      expect(sse.trimEnd().endsWith('event: message_stop\ndata: {"type":"message_stop"}')).toBe(true);
    }

    const denied = await post({});
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
