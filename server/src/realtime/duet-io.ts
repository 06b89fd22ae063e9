import type { ClientToServerEvents, ServerToClientEvents } from '@duet/contracts';
import type { Server } from 'socket.io';

/** The gateway's Socket.IO server, typed on both ends by the contracts' events. */
export type DuetIo = Server<ClientToServerEvents, ServerToClientEvents>;
