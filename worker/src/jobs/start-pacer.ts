/**
 * Lets battle starts through `perTurn` at a time per turn of the event loop. A herd of battles
 * arriving together would otherwise start back to back while the first tokens of running battles,
 * already read from their sockets, wait behind them: between two turns Node handles the I/O that
 * is ready, so tokens go first and starts take what is left.
 */
export function createStartPacer(perTurn = 1): () => Promise<void> {
  const waiting: Array<() => void> = [];
  const release = () => {
    for (let i = 0; i < perTurn && waiting.length > 0; i++) waiting.shift()?.();
    // An immediate queued from an immediate runs at the next turn, after that turn's I/O.
    if (waiting.length > 0) setImmediate(release);
  };
  return () =>
    new Promise<void>((resolve) => {
      if (waiting.push(resolve) === 1) setImmediate(release);
    });
}
