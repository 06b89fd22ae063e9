import type { StatsUpdate } from '@duet/contracts/socket-events';
import { useEffect, useRef } from 'react';
import { getSocket } from './socket.ts';

/**
 * Watches tools' win rates while the component is shown: joins their rooms (again after a
 * reconnect) and calls `onUpdate` for each `stats:update` of one of them.
 */
export function useToolStats(slugs: readonly string[], onUpdate: (update: StatsUpdate) => void): void {
  const handler = useRef(onUpdate);
  handler.current = onUpdate;
  const key = slugs.join(',');

  useEffect(() => {
    const socket = getSocket();
    const watched = key.split(',').filter(Boolean);
    const watch = () => watched.forEach((tool) => socket.emit('tool:watch', { tool }));
    const onStats = (update: StatsUpdate) => {
      if (watched.includes(update.tool)) handler.current(update);
    };
    socket.on('stats:update', onStats);
    socket.on('connect', watch);
    if (socket.connected) watch();
    return () => {
      socket.off('stats:update', onStats);
      socket.off('connect', watch);
      watched.forEach((tool) => socket.emit('tool:unwatch', { tool }));
    };
  }, [key]);
}
