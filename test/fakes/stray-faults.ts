/**
 * Loaded with `--import` into a gateway or worker process (process-faults.test.ts) to make the
 * failures nothing in Duet handles, from outside: SIGUSR2 rejects a promise no one awaits,
 * SIGWINCH throws an exception no one catches.
 */
process.on('SIGUSR2', () => {
  void Promise.reject(new Error('a stray rejection'));
});
process.on('SIGWINCH', () => {
  setImmediate(() => {
    throw new Error('a stray exception');
  });
});
