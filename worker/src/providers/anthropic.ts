import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import type { FinishReason, ModelSpec } from '@duet/contracts';
import { classifySdkError, finishOf, NO_ANSWER } from './provider.ts';
import { streamFetch } from './stream-fetch.ts';
import type { ChatRequest, ModelProvider, StreamChunk } from './provider.ts';

type StreamParams = Anthropic.Messages.MessageCreateParamsStreaming;
type UserContent = Anthropic.Messages.MessageParam['content'];
type StopReason = Anthropic.Messages.StopReason;
type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

/** Connection settings of the Anthropic provider. */
export interface AnthropicProviderOptions {
  apiKey: string;
  /**
   * The API origin, without `/v1`: the SDK appends `/v1/messages` itself (a trailing `/v1` is
   * dropped). Wins over `spec.baseURL`; without either the SDK's default (api.anthropic.com).
   */
  baseURL?: string | undefined;
  /** Time allowed until the response headers arrive, ms. */
  timeoutMs: number;
}

/** What the stream has told so far. */
interface StreamState {
  inputTokens: number | undefined;
  finish: FinishReason | undefined;
}

/**
 * A provider speaking Anthropic's Messages streaming protocol.
 * The SDK never retries (`maxRetries: 0`); the battle runner decides on retries.
 */
export function createAnthropicProvider(spec: ModelSpec, opts: AnthropicProviderOptions): ModelProvider {
  const baseURL = opts.baseURL ?? spec.baseURL;
  const client = new Anthropic({
    apiKey: opts.apiKey,
    baseURL: baseURL === undefined ? undefined : apiOrigin(baseURL),
    maxRetries: 0,
    timeout: opts.timeoutMs,
    fetch: streamFetch,
  });
  return { spec, stream: (req) => streamMessage(client, spec.model, req) };
}

/** `https://host/v1/` → `https://host`: the SDK adds `/v1/messages` to the base URL. */
function apiOrigin(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function* streamMessage(client: Anthropic, model: string, req: ChatRequest): AsyncGenerator<StreamChunk> {
  const state: StreamState = { inputTokens: undefined, finish: undefined };
  try {
    const stream = await client.messages
      .create(buildParams(model, req), { signal: req.signal })
      .catch((err: unknown) => {
        throw classify(err, false);
      });
    // On abort the SDK ends this iteration quietly instead of throwing.
    for await (const event of stream) yield* readEvent(event, state);
  } catch (err) {
    if (!req.signal.aborted) throw classify(err, true);
  }
  yield finishOf(req.signal, state.finish);
}

/** Turns one wire event into chunks, noting usage and the stop reason in `state`. */
function* readEvent(event: StreamEvent, state: StreamState): Generator<StreamChunk> {
  switch (event.type) {
    case 'message_start':
      state.inputTokens = event.message.usage.input_tokens;
      break;
    case 'content_block_delta':
      if (event.delta.type === 'text_delta' && event.delta.text) yield { type: 'text', text: event.delta.text };
      break;
    case 'message_delta':
      if (event.delta.stop_reason) state.finish = mapStopReason(event.delta.stop_reason);
      yield {
        type: 'usage',
        inputTokens: event.usage.input_tokens ?? state.inputTokens,
        outputTokens: event.usage.output_tokens,
      };
      break;
    default:
      // `content_block_start`/`_stop` carry no text; `message_stop` follows the stop reason.
      break;
  }
}

function buildParams(model: string, req: ChatRequest): StreamParams {
  return {
    model,
    stream: true,
    max_tokens: req.maxTokens,
    system: req.system,
    messages: [
      ...(req.history ?? []).flatMap((turn) => [
        { role: 'user' as const, content: userContent(turn) },
        // The Messages API refuses an empty turn.
        { role: 'assistant' as const, content: turn.assistant || NO_ANSWER },
      ]),
      { role: 'user', content: userContent(req) },
    ],
  };
}

function userContent(req: Pick<ChatRequest, 'user' | 'image'>): UserContent {
  if (!req.image) return req.user;
  return [
    {
      type: 'image',
      source: { type: 'base64', media_type: req.image.mimeType, data: req.image.data.toString('base64') },
    },
    { type: 'text', text: req.user },
  ];
}

function mapStopReason(reason: StopReason): FinishReason {
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  if (reason === 'refusal') return 'content_filter';
  // `end_turn`, `stop_sequence`, and `tool_use`/`pause_turn`, which Duet never asks for.
  return 'stop';
}

/**
 * Classifies what the SDK threw. An `event: error` inside a stream (e.g. `overloaded_error`) is an
 * `APIError` without a status: only a rate limit needs one, any other such error is already
 * retryable without it.
 */
const classify = (err: unknown, midStream: boolean) =>
  classifySdkError(err, { APIError, APIConnectionError, APIConnectionTimeoutError }, {
    midStream,
    statusOf: (e) => ((e as { type?: string | null }).type === 'rate_limit_error' ? 429 : undefined),
  });
