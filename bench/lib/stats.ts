/** The p-th percentile (0–100) of `xs`, nearest rank; 0 for none. */
export function pct(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

export const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** The machine and the day, for the top of every benchmark's output. */
export async function machineLine(): Promise<string> {
  const os = await import('node:os');
  return `${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB · node ${process.version}`;
}
