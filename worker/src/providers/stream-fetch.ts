import { STATUS_CODES } from 'node:http';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';

/**
 * The `fetch` the providers' SDKs are given. The request goes out through undici's `request`, and
 * a successful answer's body is undici's Node stream: both SDKs read any async-iterable body as it
 * is, so the stream's bytes skip the web streams of the built-in `fetch` on their way to the SDK's
 * parser, for less CPU per token than the built-in `fetch` takes, the SDK's parsing unchanged
 * (docs/benchmarks.md, crowd). An answer that is not a success comes whole, as a standard `Response`, for the SDK
 * to read its error from; a request this cannot send as is (a `Request` object, a streamed or form
 * body: the SDKs send JSON text) goes to the built-in `fetch`. Like the built-in `fetch` in Node,
 * it takes no proxy from the environment; unlike it, it does not follow redirects (a provider's
 * API answers where it is asked, and a redirect ends as an error the SDK reports with its status).
 */
export function createStreamFetch(dispatcher: Dispatcher = new Agent()): typeof fetch {
  return async (input, init = {}) => {
    const body = init.body ?? undefined;
    if (input instanceof Request || !(body === undefined || typeof body === 'string' || body instanceof Uint8Array)) {
      return fetch(input, init);
    }
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const sent = request(input, { method: (init.method ?? 'GET') as Dispatcher.HttpMethod, headers, body, signal, dispatcher });
    const res = signal ? await abortable(sent, signal) : await sent;
    if (res.statusCode < 200 || res.statusCode > 599) {
      res.body.destroy();
      throw new TypeError(`The provider answered with HTTP status ${res.statusCode}`);
    }
    const meta = { status: res.statusCode, statusText: STATUS_CODES[res.statusCode] ?? '', headers: headersOf(res.headers) };
    if (res.statusCode > 299) {
      const bytes = await res.body.arrayBuffer();
      return new Response(bytes.byteLength === 0 ? null : bytes, meta);
    }
    // A standard Response for its status and headers, with undici's body and readers in place of its own.
    const response = new Response(null, meta);
    const stream = res.body;
    Object.defineProperties(response, {
      body: { value: stream },
      bodyUsed: { get: () => stream.bodyUsed },
      text: { value: () => stream.text() },
      json: { value: () => stream.json() },
      arrayBuffer: { value: () => stream.arrayBuffer() },
      bytes: { value: () => stream.bytes() },
      blob: { value: () => stream.blob() },
      formData: { value: () => stream.formData() },
      clone: {
        value: () => {
          throw new TypeError('A streamed provider response cannot be cloned');
        },
      },
    });
    return response;
  };
}

/**
 * `sent`, or the signal's reason as soon as it aborts: undici acts on an abort only once the
 * request has a connection, so a provider that cannot be reached (a dropped SYN, a stalled TLS
 * handshake) would hold a cancel or a time-out until its connect time-out (10 s). An answer that
 * still comes after the abort is let go.
 */
function abortable(sent: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      sent.then(
        (res) => res.body.destroy(),
        () => undefined,
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    sent.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        resolve(res);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** The one the providers share: one pool of connections per provider origin. */
export const streamFetch = createStreamFetch();
