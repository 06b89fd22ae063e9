import type { Logger } from 'pino';

/**
 * A small typed in-process event bus. Services say what happened (`emit`); the parts that react,
 * in this process, subscribe (`on`): realtime pushes new win rates to watchers, the leaderboard
 * trigger marks the ratings stale, metrics count. An emitter never waits for, and never fails
 * because of, a subscriber: each handler runs on its own and its failure is logged.
 */
export interface EventBus<Events extends object> {
  on<K extends keyof Events & string>(name: K, handler: (payload: Events[K]) => void | Promise<void>): () => void;
  emit<K extends keyof Events & string>(name: K, payload: Events[K]): void;
}

export function createEventBus<Events extends object>(logger: Logger): EventBus<Events> {
  const handlers = new Map<string, Set<(payload: never) => void | Promise<void>>>();
  return {
    on(name, handler) {
      const set = handlers.get(name) ?? new Set();
      set.add(handler as (payload: never) => void | Promise<void>);
      handlers.set(name, set);
      return () => set.delete(handler as (payload: never) => void | Promise<void>);
    },
    emit(name, payload) {
      for (const handler of handlers.get(name) ?? []) {
        try {
          Promise.resolve((handler as (p: typeof payload) => void | Promise<void>)(payload)).catch((err: unknown) =>
            logger.warn({ err, event: name }, 'an event handler failed'),
          );
        } catch (err) {
          logger.warn({ err, event: name }, 'an event handler failed');
        }
      }
    },
  };
}
