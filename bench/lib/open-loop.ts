/**
 * Calls `call(i)` for i = 0 … total − 1, one every 1000/`rate` ms whatever the answers take (an open
 * loop, as a crowd arrives), then waits for every call. Returns how late the last call left
 * against its schedule (a loaded load process shows here, not in the answers' times).
 */
export async function openLoop(total: number, rate: number, call: (i: number) => Promise<void>): Promise<{ lateMs: number }> {
  const interval = 1_000 / rate;
  const start = performance.now();
  const calls: Array<Promise<void>> = [];
  let lateMs = 0;
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    lateMs = Math.max(0, performance.now() - due);
    calls.push(call(i));
  }
  await Promise.all(calls);
  return { lateMs };
}
