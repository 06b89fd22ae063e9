import { request } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent exactly as given: percent-escapes, malformed ones included, are not touched. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request sent as written, with what `fetch` would refuse or rewrite: any method with a
 * body, any header value, a path with malformed %-escapes. Resolves with the whole answer.
 */
export function rawRequest(baseUrl: string, req: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    const headers: Record<string, string> = { ...req.headers };
    if (body !== undefined) headers['content-length'] = String(body.length);
    const r = request({ host: hostname, port, method: req.method, path: req.path, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // A WebSocket handshake the server accepts: the status is all we want of it.
    r.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, headers: res.headers, body: '' });
    });
    r.on('timeout', () => r.destroy(new Error(`${req.method} ${req.path}: no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(body);
  });
}
