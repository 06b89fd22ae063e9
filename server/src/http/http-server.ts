import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { atMost } from '@duet/platform/timeout';
import type { Express } from 'express';
import { sendError } from './errors.ts';

/**
 * The HTTP server for the app. Requests Node's parser cannot read (a bad request line, too many
 * header bytes) get the same error shape as every other refusal.
 */
export function createHttpServer(app: Express): Server {
  const server = createServer(app);
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify(sendError(status, 'validation_failed', 'The request could not be read'));
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/**
 * Stops a server within `timeoutMs`: `stopAccepting` (closing Socket.IO, which closes the server)
 * lets open requests finish for all but the last 2 s, then whatever is still open (a slow
 * download, a request that never completes) is cut.
 */
export async function drainWithin(server: Server, stopAccepting: Promise<void>, timeoutMs: number): Promise<void> {
  const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, timeoutMs - 2_000));
  try {
    await atMost(timeoutMs, stopAccepting);
  } finally {
    clearTimeout(cut);
  }
  server.closeAllConnections();
}
