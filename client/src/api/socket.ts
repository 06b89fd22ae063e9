import type { ClientToServerEvents, ServerToClientEvents } from '@duet/contracts/socket-events';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';

export type DuetSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: DuetSocket | null = null;

/** The one Socket.IO connection of this tab, opened on first use. */
export function getSocket(): DuetSocket {
  socket ??= io({ path: '/socket.io', transports: ['websocket', 'polling'] });
  return socket;
}
