import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamFetch } from './stream-fetch.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let base: string;
let handle: Handler;
const dispatcher = new Agent();
const streamFetch = createStreamFetch(dispatcher);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, res, body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await dispatcher.close();
  server.closeAllConnections();
  server.close();
});

describe('streamFetch', () => {
  it("hands a success's body over as a Node stream, each write as it arrives, in a standard Response", async () => {
    let more!: () => void;
    const later = new Promise<void>((resolve) => (more = resolve));
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'r1' });
      res.write('data: one\n\n');
      void later.then(() => res.end('data: two\n\n'));
    };

    const response = await streamFetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' });

    expect(response).toBeInstanceOf(Response);
    expect({ ok: response.ok, status: response.status, statusText: response.statusText }).toEqual({ ok: true, status: 200, statusText: 'OK' });
    expect(response.headers.get('x-request-id')).toBe('r1');
    // The SDKs iterate a body that is async-iterable as it is: a web stream would be read through a reader.
    expect(response.body).toBeInstanceOf(Readable);
    expect(response.body).not.toBeInstanceOf(ReadableStream);
    const chunks = (response.body as unknown as Readable)[Symbol.asyncIterator]();
    // The first write is read while the server still holds the second.
    expect(Buffer.from((await chunks.next()).value as Uint8Array).toString()).toBe('data: one\n\n');
    more();
    expect(Buffer.from((await chunks.next()).value as Uint8Array).toString()).toBe('data: two\n\n');
    expect((await chunks.next()).done).toBe(true);
  });

  it('sends the method, headers and body as given, and reads a whole answer with json()', async () => {
    handle = (req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body }));
    };

    const response = await streamFetch(new URL(`${base}/v1/messages?beta=true`), {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer sk-test', 'Content-Type': 'application/json' }),
      body: new TextEncoder().encode('{"model":"m"}'),
    });

    expect(await response.json()).toEqual({ method: 'POST', url: '/v1/messages?beta=true', auth: 'Bearer sk-test', type: 'application/json', body: '{"model":"m"}' });
  });

  it('gives an error status whole, as a standard Response the SDK reads its error and headers from', async () => {
    handle = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end('{"error":{"message":"slow down"}}');
    };

    const response = await streamFetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' });

    expect({ ok: response.ok, status: response.status, statusText: response.statusText }).toEqual({ ok: false, status: 429, statusText: 'Too Many Requests' });
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it('ends the body with an AbortError on abort mid-answer, and lets the connection go', async () => {
    let left = false;
    handle = (_req, res) => {
      res.on('close', () => (left = true));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    };
    const controller = new AbortController();
    const response = await streamFetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}', signal: controller.signal });
    const chunks = (response.body as unknown as Readable)[Symbol.asyncIterator]();
    await chunks.next();

    controller.abort();

    await expect(chunks.next()).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => left).toBe(true); // the server saw the client leave
  });

  it('gives up at once on abort while the connection is still being opened', async () => {
    // A connector that never connects: a provider whose host drops the connection attempt.
    const stuck = new Agent({ connect: () => undefined });
    const controller = new AbortController();
    try {
      const pending = createStreamFetch(stuck)(`${base}/v1/chat/completions`, { method: 'POST', body: '{}', signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      const outcome = await Promise.race([pending.then(() => 'answered', (err: unknown) => err), new Promise((r) => setTimeout(() => r('still waiting'), 2_000))]);

      expect(outcome).toMatchObject({ name: 'AbortError' });
    } finally {
      await stuck.destroy();
    }
  });

  it('sends a form body or a Request through the built-in fetch', async () => {
    handle = (req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: req.headers['content-type']?.split(';')[0], hasFile: body.includes('name="file"') }));
    };
    const form = new FormData();
    form.append('file', new Blob(['bytes']), 'a.txt');

    const formResponse = await streamFetch(`${base}/v1/files`, { method: 'POST', body: form });
    const requestResponse = await streamFetch(new Request(`${base}/v1/models`));

    expect(await formResponse.json()).toEqual({ type: 'multipart/form-data', hasFile: true });
    expect(requestResponse.body).toBeInstanceOf(ReadableStream);
    expect(await requestResponse.json()).toEqual({ type: undefined, hasFile: false });
  });

  it('speaks TLS to a provider whose certificate it trusts, and refuses one it does not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'duet-tls-'));
    try {
      const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
      // A certificate for 127.0.0.1 of its own: providers answer over HTTPS only.
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      const tls = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: over tls\n\n');
      });
      tls.listen(0, '127.0.0.1');
      await once(tls, 'listening');
      const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v1/chat/completions`;
      const trusting = new Agent({ connect: { ca: readFileSync(cert) } });
      try {
        const response = await createStreamFetch(trusting)(url, { method: 'POST', body: '{}' });
        expect(await response.text()).toBe('data: over tls\n\n');
        await expect(streamFetch(url, { method: 'POST', body: '{}' })).rejects.toThrow(/self[- ]signed/i);
      } finally {
        await trusting.close();
        tls.closeAllConnections();
        tls.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
