import type { BattleInputs, FinishReason, ImageMimeType, Language, ModelSpec } from '@duet/shared';

/** One request to one model. */
export interface ChatRequest {
  system: string;
  user: string;
  image?: { mimeType: ImageMimeType; data: Buffer } | undefined;
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
    /** Stable code shown to viewers: `rate_limited`, `provider_unavailable`, `bad_request`, `auth_failed`, `timeout`, `stream_cut`, `provider_error`. */
    readonly code: string,
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
  if (status !== undefined && status >= 400) return new ProviderError(message, 'bad_request', false, status);
  return new ProviderError(message, 'provider_unavailable', true, status);
}
