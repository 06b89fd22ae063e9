import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { FinishReason, ModelSpec } from '@duet/contracts';
import { classifySdkError, finishOf, NO_ANSWER } from './provider.ts';
import { streamFetch } from './stream-fetch.ts';
import type { ChatRequest, ModelProvider, StreamChunk } from './provider.ts';

const SDK = { APIError, APIConnectionError, APIConnectionTimeoutError };

type ChatStreamParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
type UserContent = OpenAI.Chat.Completions.ChatCompletionUserMessageParam['content'];
type WireFinishReason = OpenAI.Chat.Completions.ChatCompletionChunk.Choice['finish_reason'];

/** Connection settings of an OpenAI-protocol provider. */
export interface OpenAIProviderOptions {
  apiKey: string;
  /** Ends in `/v1`. Wins over `spec.baseURL`; without either the SDK's default (api.openai.com). */
  baseURL?: string | undefined;
  /** Time allowed until the response headers arrive, ms. */
  timeoutMs: number;
}

/**
 * A provider speaking OpenAI's Chat Completions streaming protocol: OpenAI itself, and
 * `openai-compatible` servers (Ollama, vLLM, llama.cpp) through `baseURL`.
 * The SDK never retries (`maxRetries: 0`); the battle runner decides on retries.
 */
export function createOpenAIProvider(spec: ModelSpec, opts: OpenAIProviderOptions): ModelProvider {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    baseURL: opts.baseURL ?? spec.baseURL,
    maxRetries: 0,
    timeout: opts.timeoutMs,
    fetch: streamFetch,
  });
  return { spec, stream: (req) => streamChat(client, spec.model, req) };
}

async function* streamChat(client: OpenAI, model: string, req: ChatRequest): AsyncGenerator<StreamChunk> {
  let finish: FinishReason | undefined;
  try {
    const stream = await client.chat.completions
      .create(buildParams(model, req), { signal: req.signal })
      .catch((err: unknown) => {
        throw classifySdkError(err, SDK, { midStream: false });
      });
    // On abort the SDK ends this iteration quietly instead of throwing.
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta?.content) yield { type: 'text', text: choice.delta.content };
      if (choice?.finish_reason) finish = mapFinishReason(choice.finish_reason);
      if (chunk.usage) {
        yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      }
    }
  } catch (err) {
    if (!req.signal.aborted) throw classifySdkError(err, SDK, { midStream: true });
  }
  yield finishOf(req.signal, finish);
}

function buildParams(model: string, req: ChatRequest): ChatStreamParams {
  return {
    model,
    stream: true,
    stream_options: { include_usage: true },
    // `max_tokens` rather than `max_completion_tokens`: OpenAI-compatible servers understand it.
    max_tokens: req.maxTokens,
    messages: [
      { role: 'system', content: req.system },
      ...(req.history ?? []).flatMap((turn) => [
        { role: 'user' as const, content: userContent(turn) },
        { role: 'assistant' as const, content: turn.assistant || NO_ANSWER },
      ]),
      { role: 'user', content: userContent(req) },
    ],
  };
}

function userContent(req: Pick<ChatRequest, 'user' | 'image'>): UserContent {
  if (!req.image) return req.user;
  const url = `data:${req.image.mimeType};base64,${req.image.data.toString('base64')}`;
  return [
    { type: 'text', text: req.user },
    { type: 'image_url', image_url: { url } },
  ];
}

function mapFinishReason(reason: NonNullable<WireFinishReason>): FinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  // `stop`, and `tool_calls`/`function_call`, which Duet never asks for.
  return 'stop';
}
