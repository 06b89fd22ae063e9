import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { listen } from '@duet/platform/listen';
import { describe, expect, it } from 'vitest';
import { drainWithin } from './http-server.ts';

/** Timers this process has armed and not yet cleared or fired. */
const pendingTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** Listens on a free port of 127.0.0.1; resolves with its URL. */
const listening = async (server: Server): Promise<string> => (await listen(server, 0, '127.0.0.1', { error: () => undefined })).url;

const closed = (server: Server) => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));

describe('drainWithin', () => {
  it('leaves no timer of its own behind once the server has stopped', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await listening(server);
    const before = pendingTimers();
    await drainWithin(server, closed(server), 60_000);
    expect(pendingTimers()).toBe(before);
  });

  it('cuts a request that never ends when the bound is near, so the server stops', async () => {
    let arrived!: () => void;
    const started = new Promise<void>((resolve) => (arrived = resolve));
    // Answers nothing: only the drain's cut can end this request.
    const server = createServer(() => arrived());
    const req = request(`${await listening(server)}/slow`);
    const outcome = new Promise<string>((resolve) => {
      req.on('response', () => resolve('answered'));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    req.end();
    await started;
    // 2.1 s: the open request is cut 2 s before the bound, 100 ms in.
    await drainWithin(server, closed(server), 2_100);
    expect(await outcome).toBe('ECONNRESET');
    expect(server.listening).toBe(false);
  });

  it('passes on the failure of the step that stops the server', async () => {
    const server = createServer();
    await expect(drainWithin(server, Promise.reject(new Error('not running')), 1_000)).rejects.toThrow('not running');
  });
});
