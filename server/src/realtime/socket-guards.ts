import type { IncomingMessage } from 'node:http';
import { battleOfRoom, isToolRoom } from '@duet/contracts';
import type { Ack } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import proxyaddr from 'proxy-addr';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Socket } from 'socket.io';
import { AppError } from '../http/errors.ts';

/** What one browser tab, and one address, may do over Socket.IO. */
export interface SocketLimits {
  /** Battle and tool rooms one socket may be in at once. */
  maxRooms: number;
  /** Sockets one client address may hold open on this gateway. */
  maxSocketsPerIp: number;
  /** `battle:join` per socket per second. */
  joinsPerSecond: number;
  /** `battle:cancel` per socket per second. */
  cancelsPerSecond: number;
  /** Any event per socket per second (floods of unknown or cheap events included). */
  eventsPerSecond: number;
}

/** An acknowledgement the client may or may not have asked for: only a function is ever called. */
export type MaybeAck<T> = Ack<T> | undefined;

export const ackOf = <T>(ack: unknown): MaybeAck<T> => (typeof ack === 'function' ? (ack as Ack<T>) : undefined);

/**
 * The payload and acknowledgement of an incoming event's arguments. Socket.IO puts the
 * acknowledgement last, and only an acknowledgement can be a function (JSON carries none), so a
 * client that sends no payload, or extra arguments, still gets its answer. Extra arguments are ignored.
 */
export function eventArgs<T>(args: readonly unknown[]): { payload: unknown; ack: MaybeAck<T> } {
  const ack = ackOf<T>(args.at(-1));
  return { payload: ack && args.length === 1 ? undefined : args[0], ack };
}

/** Answers an acknowledgement with the error an `AppError` carries, or a generic one. */
export function fail<T>(ack: MaybeAck<T>, err: unknown): void {
  if (!ack) return;
  if (err instanceof AppError) ack({ ok: false, error: { code: err.code, message: err.message } });
  else ack({ ok: false, error: { code: 'internal', message: 'Something went wrong' } });
}

/**
 * The client address of a request, trusting `X-Forwarded-For` only from the proxies the gateway
 * is configured to trust (the same rule Express applies to HTTP requests).
 */
export function clientAddress(req: IncomingMessage, trust: (addr: string, i: number) => boolean): string {
  return proxyaddr(req, trust);
}

/**
 * Browsers always send `Origin` on a WebSocket or polling request; a page on another site must
 * not open a socket with the visitor's cookies. Allowed: the gateway's own origin (the Host the
 * request came to) and the configured extra origins. Clients that send no Origin (servers,
 * scripts) are not browsers acting for a visitor, and pass.
 */
export function originAllowed(req: IncomingMessage, extraOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (extraOrigins.includes(origin)) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host !== '' && host === req.headers.host;
}

/** Counts open sockets per client address on this gateway. */
export function socketsPerAddress(max: number) {
  const open = new Map<string, number>();
  return {
    /** Takes a place for `ip`, or answers false when it has `max` already. */
    take(ip: string): boolean {
      const n = open.get(ip) ?? 0;
      if (n >= max) return false;
      open.set(ip, n + 1);
      return true;
    },
    /** Whether `ip` has all its places taken. */
    full(ip: string): boolean {
      return (open.get(ip) ?? 0) >= max;
    },
    release(ip: string): void {
      const n = (open.get(ip) ?? 1) - 1;
      if (n <= 0) open.delete(ip);
      else open.set(ip, n);
    },
    get size() {
      return open.size;
    },
  };
}

/** Per-socket event budgets (token buckets refilled every second). */
export function eventBudgets(limits: SocketLimits) {
  const bucket = (points: number) => new RateLimiterMemory({ points, duration: 1 });
  const any = bucket(limits.eventsPerSecond);
  // A Map, not an object: the event name is the client's, and may well be `__proto__`.
  const perEvent = new Map<string, RateLimiterMemory>([
    ['battle:join', bucket(limits.joinsPerSecond)],
    ['battle:cancel', bucket(limits.cancelsPerSecond)],
  ]);
  /** Spends one point of the socket's budget for `event`; false once it is spent. */
  return async function spend(socketId: string, event: string): Promise<boolean> {
    try {
      await any.consume(socketId);
      await perEvent.get(event)?.consume(socketId);
      return true;
    } catch {
      return false;
    }
  };
}

export const rateLimited = () => new AppError(429, 'rate_limited', 'Too many requests on this connection. Please slow down.');

/**
 * Battle and tool rooms the socket is in (its own id room is not counted, nor rooms a forged
 * adapter message made it join: they would fill every socket's allowance).
 */
export function joinedRooms(socket: Socket): number {
  let joined = 0;
  for (const room of socket.rooms) if (battleOfRoom(room) !== null || isToolRoom(room)) joined += 1;
  return joined;
}

type Method = (...args: unknown[]) => unknown;

/**
 * `redis` seen through a proxy: the methods in `replaced` are the given ones, every other method
 * runs on the client itself. `constructor` stays as it is: the adapter tells the kind of client by
 * its name.
 */
function withMethods(redis: RedisClient, replaced: (target: RedisClient, proxy: RedisClient) => Record<string, Method>): RedisClient {
  let methods: Record<string, Method> | undefined;
  return new Proxy(redis, {
    get(target, prop, receiver: RedisClient) {
      methods ??= replaced(target, receiver);
      if (typeof prop === 'string' && Object.hasOwn(methods, prop)) return methods[prop];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' && prop !== 'constructor' ? (value as Method).bind(target) : value;
    },
  });
}

/** `command` of `target`, its promise's failure going to `onError` instead of to nobody. */
const caught =
  (target: RedisClient, command: string, onError: (err: unknown, command: string) => void): Method =>
  (...args) =>
    ((target as unknown as Record<string, Method>)[command]!.apply(target, args) as Promise<unknown>).catch((err: unknown) => {
      onError(err, command);
      return 0;
    });

/**
 * The Socket.IO Redis adapter's subscriber connection, with every listener the adapter adds unable
 * to throw. The adapter decodes whatever arrives on its channels without a guard, so one malformed
 * message (anyone who can publish to Redis can send it) would end the process; here its failure,
 * thrown or rejected, goes to `onMessageError` instead. The (un)subscriptions it never awaits
 * (at shutdown with Redis away, they fail) go to `onCommandError`.
 */
export function guardedSubscriber(
  redis: RedisClient,
  onMessageError: (err: unknown, event: string) => void,
  onCommandError: (err: unknown, command: string) => void,
): RedisClient {
  const guarded = new WeakMap<Method, Method>();
  const guard = (event: string, listener: Method): Method => {
    let wrapped = guarded.get(listener);
    if (!wrapped) {
      wrapped = (...args) => {
        try {
          const result = listener(...args);
          if (result instanceof Promise) result.catch((err: unknown) => onMessageError(err, event));
        } catch (err) {
          onMessageError(err, event);
        }
      };
      guarded.set(listener, wrapped);
    }
    return wrapped;
  };
  return withMethods(redis, (target, proxy) => {
    const on = (event: string, listener: Method) => {
      target.on(event, guard(event, listener));
      return proxy;
    };
    const off = (event: string, listener: Method) => {
      target.off(event, guarded.get(listener) ?? listener);
      return proxy;
    };
    const commands = ['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe'].map((c) => [c, caught(target, c, onCommandError)]);
    return { on, addListener: on, off, removeListener: off, ...Object.fromEntries(commands) } as Record<string, Method>;
  });
}

/**
 * The Socket.IO Redis adapter's publishing connection, with every PUBLISH's failure going to
 * `onError`. The adapter (one Redis, not a cluster: the sharded one catches its own) never handles
 * the promise a publish returns: the last win rates sent as the gateway closes its connections
 * would be a rejection nothing handled.
 */
export function guardedPublisher(redis: RedisClient, onError: (err: unknown) => void): RedisClient {
  return withMethods(redis, (target) => ({ publish: caught(target, 'publish', onError) }));
}
