import type { BattleInputs, FinishReason, ImageMimeType, Language, ModelSpec, SideErrorCode } from '@duet/contracts';

/** An image sent with a question. */
export interface ChatImage {
  mimeType: ImageMimeType;
  data: Buffer;
}

/** An earlier turn of the conversation: what was asked, and what this model answered. */
export interface ChatTurn {
  user: string;
  image?: ChatImage | undefined;
  /** The model's own answer ('' when it gave none). */
  assistant: string;
}

/** What an earlier turn without an answer (the model failed) is sent as: APIs refuse an empty one. */
export const NO_ANSWER = '(no answer)';

/** One request to one model. */
export interface ChatRequest {
  system: string;
  /** The earlier turns, first to last, before `user` (a follow-up's); none for a first question. */
  history?: ChatTurn[] | undefined;
  user: string;
  image?: ChatImage | undefined;
  maxTokens: number;
  /** Aborts the request (cancel, shutdown, idle time-out). */
  signal: AbortSignal;
  /** What the visitor asked, for adapters that answer without a network (demo). */
  context: { tool: string; lang: Language; inputs: BattleInputs; text: string; hasImage: boolean };
}

/** What a provider stream yields. `finish` comes last, once; `usage` may come before it. */
export type StreamChunk =
  | { type: 'text'; text: string }
  | { type: 'usage'; inputTokens?: number | undefined; outputTokens?: number | undefined }
  | { type: 'finish'; reason: FinishReason };

/** One model behind one interface, whatever the provider. */
export interface ModelProvider {
  readonly spec: ModelSpec;
  /** Streams the answer. Throws `ProviderError` on failure; stops promptly when `signal` aborts. */
  stream(req: ChatRequest): AsyncIterable<StreamChunk>;
}

/** A provider failure, classified so the battle runner knows whether a retry may help. */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** Stable code shown to viewers. */
    readonly code: SideErrorCode,
    /** True for 429, 5xx and connection failures. */
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Maps an HTTP status to a provider error. */
export function errorFromStatus(status: number | undefined, message: string): ProviderError {
  if (status === 429) return new ProviderError(message, 'rate_limited', true, status);
  if (status === 401 || status === 403) return new ProviderError(message, 'auth_failed', false, status);
  if (status !== undefined && status >= 500) return new ProviderError(message, 'provider_unavailable', true, status);
  // A redirect too: the worker does not follow one (a provider's API answers where it is asked), so it means a wrong base URL.
  if (status !== undefined && status >= 300) return new ProviderError(message, 'bad_request', false, status);
  return new ProviderError(message, 'provider_unavailable', true, status);
}

/** The error classes an official SDK throws (OpenAI's and Anthropic's have the same shape). */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status?: number | undefined };
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Classifies what an SDK threw. `statusOf` recovers a status an error carries only in its body
 * (an `event: error` inside an Anthropic stream has none). While opening the stream anything
 * unknown is a non-retryable `provider_error`; `midStream`, a malformed chunk is one too, and any
 * other failure is the connection dropping mid-answer (`stream_cut`).
 */
export function classifySdkError(
  err: unknown,
  sdk: SdkErrorClasses,
  opts: { midStream: boolean; statusOf?: (err: Error & { status?: number | undefined }) => number | undefined },
): ProviderError {
  if (err instanceof ProviderError) return err;
  // The timeout class extends the connection class: test it first.
  if (err instanceof sdk.APIConnectionTimeoutError) return new ProviderError(err.message, 'timeout', true);
  if (err instanceof sdk.APIConnectionError) return new ProviderError(err.message, 'provider_unavailable', true);
  if (err instanceof sdk.APIError) return errorFromStatus(err.status ?? opts.statusOf?.(err), err.message);
  if (!opts.midStream || err instanceof SyntaxError) return new ProviderError(messageOf(err), 'provider_error', false);
  return new ProviderError(`The stream was cut off: ${messageOf(err)}`, 'stream_cut', false);
}

/** The end every adapter gives a stream: cancelled when aborted, cut when no finish reason came. */
export function finishOf(signal: AbortSignal, finish: FinishReason | undefined): StreamChunk {
  if (signal.aborted) return { type: 'finish', reason: 'cancelled' };
  if (!finish) throw new ProviderError('The stream ended before the model finished its answer', 'stream_cut', false);
  return { type: 'finish', reason: finish };
}
