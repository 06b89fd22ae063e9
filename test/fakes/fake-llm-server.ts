// Over 300 lines on purpose: one fake server speaking two providers' wire formats (JSON and SSE) plus moderation, with the knobs the tests script.
/**
 * A fake LLM server for tests: a real HTTP server speaking OpenAI's Chat Completions and
 * Anthropic's Messages wire formats (JSON and SSE streaming), so the real SDKs run against it.
 * How each model answers is scripted per model name (`scenario`). It also serves OpenAI's
 * moderation endpoint (`POST /v1/moderations`), scripted with `moderation`.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** How one model answers. */
export interface Scenario {
  /** The full answer; `undefined` means a fixed sentence naming the model. */
  text: string | undefined;
  /** Delay between the response headers and the first token, ms. */
  ttftMs: number;
  /** Pace of the tokens (word-ish pieces of `text`); 0 sends them all at once. */
  tokensPerSecond: number;
  /** Answer this HTTP status (e.g. 429, 500) in the provider's error shape... */
  failStatus: number | undefined;
  /** ...for this many requests for the model, then answer normally. Default: every request. */
  failTimes: number;
  /** Send the headers (and the stream's opening events), then nothing until the client leaves. */
  hang: boolean;
  /** Send this many tokens, then stop without finishing the stream (see `cutMode`). */
  cutAfterTokens: number | undefined;
  /** How a cut stream stops: `destroy` the socket (default), or `end` the response cleanly. */
  cutMode: 'destroy' | 'end';
  /** The finish reason reported at the end, in each provider's words. */
  finishReason: 'stop' | 'length';
  /**
   * Stamp each token with the moment it leaves the server (`word@<ms since the epoch>`, to the
   * microsecond, comparable across processes on one machine): benchmarks read it back in a viewer.
   */
  stamp: boolean;
}

/** How `POST /v1/moderations` answers. */
export interface ModerationScript {
  /** An input containing this text is flagged; `undefined` flags nothing. */
  flagMarker: string | undefined;
  /** The categories a flagged input is flagged for (OpenAI's names). */
  flagCategories: ModerationCategory[];
  /** Answer this HTTP status (e.g. 500) in OpenAI's error shape instead of a result. */
  failStatus: number | undefined;
}

/** The categories OpenAI's omni moderation models report, every one in every result. */
export const MODERATION_CATEGORIES = [
  'harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'illicit', 'illicit/violent',
  'self-harm', 'self-harm/instructions', 'self-harm/intent', 'sexual', 'sexual/minors', 'violence', 'violence/graphic',
] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

const DEFAULT_MODERATION: ModerationScript = { flagMarker: undefined, flagCategories: ['sexual'], failStatus: undefined };

/** One request the server received, whatever it answered. */
export interface RecordedRequest {
  method: string;
  /** The URL path without the query, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `undefined` when the body was not JSON. */
  body: unknown;
  /** `body.model`, when it is a string. */
  model: string | undefined;
}

/** A running fake server. */
export interface FakeLlmServer {
  /** The origin, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  /** `baseURL` for the OpenAI SDK (`${url}/v1`). */
  readonly openaiBaseURL: string;
  /** `baseURL` for the Anthropic SDK (the origin: the SDK appends `/v1/messages`). */
  readonly anthropicBaseURL: string;
  /** The only key the server accepts. */
  readonly apiKey: string;
  /** Every request received since the start or the last `reset()`, oldest first. */
  readonly requests: RecordedRequest[];
  /** Responses still in progress (streaming, hanging or waiting); 0 once every client has left. */
  readonly activeResponses: number;
  /** Sets how `model` answers, over the defaults (replaces an earlier scenario; restarts `failTimes`). */
  scenario(model: string, s: Partial<Scenario>): void;
  /** Changes the defaults every model answers with unless its scenario says otherwise. */
  setDefault(s: Partial<Scenario>): void;
  /** Changes how `POST /v1/moderations` answers (over its current script). */
  moderation(s: Partial<ModerationScript>): void;
  /** Forgets scenarios, defaults, the moderation script, failure counts and recorded requests. */
  reset(): void;
  /** Ends every open connection (hanging ones included) and stops the server. */
  close(): Promise<void>;
}

/** Everything an answer needs to know about its request. */
interface AnswerContext {
  id: string;
  model: string;
  inputTokens: number;
  /** OpenAI only: `stream_options.include_usage`. */
  includeUsage: boolean;
  finishReason: Scenario['finishReason'];
}

/** One provider's wire format. */
interface WireFormat {
  isAuthorized(headers: IncomingHttpHeaders, apiKey: string): boolean;
  promptText(body: Record<string, unknown>): string;
  errorBody(status: number, message: string, id: string): object;
  requestIdHeader: string;
  /** SSE frames sent right after the headers, before the first token. */
  streamStart(ctx: AnswerContext): string[];
  streamToken(ctx: AnswerContext, text: string): string;
  /** SSE frames after the last token. */
  streamEnd(ctx: AnswerContext, outputTokens: number): string[];
  /** The whole answer of a non-streaming request. */
  completion(ctx: AnswerContext, text: string, outputTokens: number): object;
}

const DEFAULT_SCENARIO: Scenario = {
  text: undefined,
  ttftMs: 0,
  tokensPerSecond: 0,
  failStatus: undefined,
  failTimes: Number.POSITIVE_INFINITY,
  hang: false,
  cutAfterTokens: undefined,
  cutMode: 'destroy',
  finishReason: 'stop',
  stamp: false,
};

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

/** The answer of a model without a `text` in its scenario. */
export function defaultAnswer(model: string): string {
  return `Hello from ${model}. This is a scripted answer streamed one word at a time.`;
}

/** The wall clock in milliseconds with microsecond precision, the same in every process of a machine. */
export const wallClockMs = (): number => performance.timeOrigin + performance.now();

/** `word ` → `word@1732380000123.456 `: the token's text with the moment it is sent. */
function stampToken(token: string): string {
  const word = token.trimEnd();
  return `${word}@${wallClockMs().toFixed(3)}${token.slice(word.length)}`;
}

/** The send times stamped on the tokens of a text (see `Scenario.stamp`). */
export function readStamps(text: string): number[] {
  return [...text.matchAll(/@(\d+\.\d{3})/g)].map((m) => Number(m[1]));
}

/** Splits text into word-ish tokens whose concatenation is the text: `"a b"` → `["a ", "b"]`. */
export function tokenize(text: string): string[] {
  return text.split(/(?<=\s)(?=\S)/).filter((t) => t.length > 0);
}

/** A rough token count: the number of words. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length;
}

/** Starts a fake server on 127.0.0.1 and a random port. */
export async function startFakeLlmServer(options: { apiKey?: string } = {}): Promise<FakeLlmServer> {
  const fake = new FakeLlm(options.apiKey ?? 'test-key');
  await fake.listen();
  return fake;
}

class FakeLlm implements FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly scenarios = new Map<string, Partial<Scenario>>();
  private readonly failuresServed = new Map<string, number>();
  private readonly active = new Set<AbortController>();
  private defaults: Scenario = { ...DEFAULT_SCENARIO };
  private moderationScript: ModerationScript = { ...DEFAULT_MODERATION };
  private origin = '';
  private nextId = 1;

  constructor(readonly apiKey: string) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => failResponse(res, err));
    });
  }

  get url(): string {
    return this.origin;
  }
  get openaiBaseURL(): string {
    return `${this.origin}/v1`;
  }
  get anthropicBaseURL(): string {
    return this.origin;
  }
  get activeResponses(): number {
    return this.active.size;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
  }

  scenario(model: string, s: Partial<Scenario>): void {
    this.scenarios.set(model, s);
    this.failuresServed.delete(model);
  }

  setDefault(s: Partial<Scenario>): void {
    this.defaults = { ...this.defaults, ...s };
  }

  moderation(s: Partial<ModerationScript>): void {
    this.moderationScript = { ...this.moderationScript, ...s };
  }

  reset(): void {
    this.scenarios.clear();
    this.failuresServed.clear();
    this.defaults = { ...DEFAULT_SCENARIO };
    this.moderationScript = { ...DEFAULT_MODERATION };
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const controller of this.active) controller.abort();
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : undefined;
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body, model });

    const wire = req.method === 'POST' ? WIRES[path] : undefined;
    const id = String(this.nextId++);
    if (req.method === 'POST' && path === '/v1/moderations') return this.moderate(req.headers, body, res, id);
    if (!wire) return sendJson(res, 404, { error: { message: `No route for ${req.method} ${path}` } });
    if (!wire.isAuthorized(req.headers, this.apiKey)) return sendError(res, wire, 401, 'Invalid API key', id);
    if (!isRecord(body) || model === undefined) return sendError(res, wire, 400, 'The body needs JSON with a model', id);

    const s = this.scenarioFor(model);
    if (this.shouldFail(model, s)) return sendError(res, wire, s.failStatus ?? 500, `Scripted failure for ${model}`, id);

    const ctx: AnswerContext = {
      id,
      model,
      inputTokens: countWords(wire.promptText(body)),
      includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
      finishReason: s.finishReason,
    };
    await this.track(res, (signal) =>
      body.stream === true ? streamAnswer(res, wire, ctx, s, signal) : completeAnswer(res, wire, ctx, s, signal),
    );
  }

  /** `POST /v1/moderations`: one result per input string, or one for a list of content parts. */
  private moderate(headers: IncomingHttpHeaders, body: unknown, res: ServerResponse, id: string): void {
    const fail = (status: number, message: string) => sendError(res, OPENAI_WIRE, status, message, id);
    if (!OPENAI_WIRE.isAuthorized(headers, this.apiKey)) return fail(401, 'Invalid API key');
    const texts = isRecord(body) ? moderationTexts(body.input) : undefined;
    if (!texts) return fail(400, "'input' must be a string, a list of strings, or a list of content parts");
    const script = this.moderationScript;
    if (script.failStatus !== undefined) return fail(script.failStatus, 'Scripted moderation failure');
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'omni-moderation-latest';
    sendJson(res, 200, {
      id: `modr-fake${id}`,
      model,
      results: texts.map((text) => moderationResult(script.flagMarker !== undefined && text.includes(script.flagMarker), script.flagCategories)),
    }, { 'x-request-id': id });
  }

  private scenarioFor(model: string): Scenario {
    const s = { ...this.defaults, ...this.scenarios.get(model) };
    return { ...s, text: s.text ?? defaultAnswer(model) };
  }

  /** True (and counted) while the model still has scripted failures to serve. */
  private shouldFail(model: string, s: Scenario): boolean {
    if (s.failStatus === undefined) return false;
    const served = this.failuresServed.get(model) ?? 0;
    if (served >= s.failTimes) return false;
    this.failuresServed.set(model, served + 1);
    return true;
  }

  /** Runs an answer with a signal that aborts when the client leaves or the server closes. */
  private async track(res: ServerResponse, answer: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    this.active.add(controller);
    res.once('close', () => {
      controller.abort();
      this.active.delete(controller);
    });
    await answer(controller.signal);
  }
}

// ---------------------------------------------------------------------------------------------
// Answers

async function streamAnswer(
  res: ServerResponse,
  wire: WireFormat,
  ctx: AnswerContext,
  s: Scenario,
  signal: AbortSignal,
): Promise<void> {
  res.writeHead(200, { ...SSE_HEADERS, [wire.requestIdHeader]: ctx.id });
  res.flushHeaders();
  for (const frame of wire.streamStart(ctx)) res.write(frame);
  if (s.hang) return; // The response stays open; closing it (client or server) aborts `signal`.

  const tokens = tokenize(s.text ?? '').slice(0, s.cutAfterTokens);
  if (!(await pause(s.ttftMs, signal))) return;
  const interval = s.tokensPerSecond > 0 ? 1000 / s.tokensPerSecond : 0;
  for (const [i, token] of tokens.entries()) {
    if (i > 0 && !(await pause(interval, signal))) return;
    await write(res, wire.streamToken(ctx, s.stamp ? stampToken(token) : token));
  }

  if (s.cutAfterTokens === undefined) {
    res.end(wire.streamEnd(ctx, tokens.length).join(''));
    return;
  }
  // Every frame written has reached the socket: the client sees them, then the cut.
  if (s.cutMode === 'end') res.end();
  else res.destroy();
}

async function completeAnswer(
  res: ServerResponse,
  wire: WireFormat,
  ctx: AnswerContext,
  s: Scenario,
  signal: AbortSignal,
): Promise<void> {
  if (s.hang) return;
  if (!(await pause(s.ttftMs, signal))) return;
  if (s.cutAfterTokens !== undefined) {
    res.destroy();
    return;
  }
  const text = s.text ?? '';
  sendJson(res, 200, wire.completion(ctx, text, tokenize(text).length), { [wire.requestIdHeader]: ctx.id });
}

/** Waits `ms`; false when the client left meanwhile. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Writes a frame and resolves once it has been handed to the socket (or the socket is gone). */
function write(res: ServerResponse, frame: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(frame, () => resolve());
  });
}

function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, wire: WireFormat, status: number, message: string, id: string): void {
  sendJson(res, status, wire.errorBody(status, message, id), { [wire.requestIdHeader]: id });
}

function failResponse(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, 500, { error: { message: err instanceof Error ? err.message : String(err) } });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a message, a content part list or a system prompt, images left out. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (!isRecord(value)) return '';
  if (value.type === 'text' && typeof value.text === 'string') return value.text;
  return 'content' in value ? textOf(value.content) : '';
}

function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  return match?.[1];
}

const sseData = (data: object): string => `data: ${JSON.stringify(data)}\n\n`;
const sseEvent = (event: string, data: object): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

function openaiErrorFields(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status === 404) return { type: 'invalid_request_error', code: 'model_not_found' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

function openaiChunk(ctx: AnswerContext, choices: object[], usage: object | null = null): object {
  const chunk = {
    id: `chatcmpl-fake${ctx.id}`,
    object: 'chat.completion.chunk',
    created: nowSeconds(),
    model: ctx.model,
    system_fingerprint: null,
    choices,
  };
  return ctx.includeUsage ? { ...chunk, usage } : chunk;
}

function openaiUsage(ctx: AnswerContext, outputTokens: number): object {
  return { prompt_tokens: ctx.inputTokens, completion_tokens: outputTokens, total_tokens: ctx.inputTokens + outputTokens };
}

const openaiChoice = (delta: object, finishReason: string | null = null): object => ({
  index: 0,
  delta,
  logprobs: null,
  finish_reason: finishReason,
});

const OPENAI_WIRE: WireFormat = {
  isAuthorized: (headers, apiKey) => bearerToken(headers) === apiKey,
  promptText: (body) => textOf(body.messages),
  errorBody: (status, message) => ({ error: { message, ...openaiErrorFields(status), param: null } }),
  requestIdHeader: 'x-request-id',
  streamStart: (ctx) => [sseData(openaiChunk(ctx, [openaiChoice({ role: 'assistant', content: '' })]))],
  streamToken: (ctx, text) => sseData(openaiChunk(ctx, [openaiChoice({ content: text })])),
  streamEnd: (ctx, outputTokens) => [
    sseData(openaiChunk(ctx, [openaiChoice({}, ctx.finishReason)])),
    ...(ctx.includeUsage ? [sseData(openaiChunk(ctx, [], openaiUsage(ctx, outputTokens)))] : []),
    'data: [DONE]\n\n',
  ],
  completion: (ctx, text, outputTokens) => ({
    id: `chatcmpl-fake${ctx.id}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model: ctx.model,
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: ctx.finishReason },
    ],
    usage: openaiUsage(ctx, outputTokens),
  }),
};

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const anthropicStopReason = (ctx: AnswerContext): string => (ctx.finishReason === 'length' ? 'max_tokens' : 'end_turn');

function anthropicMessage(ctx: AnswerContext, content: object[], stopReason: string | null, outputTokens: number): object {
  return {
    id: `msg_fake${ctx.id}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: ctx.inputTokens,
      output_tokens: outputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

const ANTHROPIC_WIRE: WireFormat = {
  isAuthorized: (headers, apiKey) => headers['x-api-key'] === apiKey || bearerToken(headers) === apiKey,
  promptText: (body) => `${textOf(body.system)} ${textOf(body.messages)}`,
  errorBody: (status, message, id) => ({
    type: 'error',
    error: { type: ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
    request_id: `req_fake${id}`,
  }),
  requestIdHeader: 'request-id',
  streamStart: (ctx) => [
    sseEvent('message_start', { type: 'message_start', message: anthropicMessage(ctx, [], null, 1) }),
    sseEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    sseEvent('ping', { type: 'ping' }),
  ],
  streamToken: (_ctx, text) =>
    sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
  streamEnd: (ctx, outputTokens) => [
    sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: anthropicStopReason(ctx), stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  ],
  completion: (ctx, text, outputTokens) =>
    anthropicMessage(ctx, [{ type: 'text', text }], anthropicStopReason(ctx), outputTokens),
};

// ---------------------------------------------------------------------------------------------
// OpenAI Moderations

/** The texts to judge: a string, a list of strings (one result each), or content parts (one result). */
function moderationTexts(input: unknown): string[] | undefined {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((i) => typeof i === 'string')) return input as string[];
  if (!input.every((i) => isRecord(i) && (i.type === 'text' || i.type === 'image_url'))) return undefined;
  return [textOf(input)];
}

function moderationResult(flagged: boolean, flaggedAs: readonly ModerationCategory[]): object {
  const on = (c: ModerationCategory) => flagged && flaggedAs.includes(c);
  const each = <T>(value: (c: ModerationCategory) => T) => Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, value(c)]));
  return {
    flagged,
    categories: each(on),
    category_scores: each((c) => (on(c) ? 0.97 : 0.0004)),
    category_applied_input_types: each(() => ['text']),
  };
}

const WIRES: Partial<Record<string, WireFormat>> = {
  '/v1/chat/completions': OPENAI_WIRE,
  '/v1/messages': ANTHROPIC_WIRE,
};

/**
 * Settings for a roster of two models the fake server answers through the real SDKs: a GPT-class
 * model over OpenAI's protocol and a Claude-class one over Anthropic's, with the server's key.
 * Scenarios are set per model name (`models.gpt`, `models.claude`).
 */
export function fakeRosterEnv(fake: FakeLlmServer, models: { gpt: string; claude: string } = { gpt: 'gpt-fake', claude: 'claude-fake' }): Record<string, string> {
  return {
    DUET_MODELS: JSON.stringify([
      { id: 'fake:gpt', label: 'Fake GPT', provider: 'openai', model: models.gpt, family: 'gpt', baseURL: fake.openaiBaseURL },
      { id: 'fake:claude', label: 'Fake Claude', provider: 'anthropic', model: models.claude, family: 'claude', baseURL: fake.anthropicBaseURL },
    ]),
    OPENAI_API_KEY: fake.apiKey,
    ANTHROPIC_API_KEY: fake.apiKey,
  };
}
