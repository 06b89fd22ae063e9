import type { ChildProcess } from 'node:child_process';

export interface ProcessOutput {
  /** Everything the process wrote to stdout and stderr so far. */
  text: () => string;
  /** Resolves when `marker` first appears in the output. */
  seen: Promise<void>;
}

/** The part of a child process read here: its output streams. */
export type OutputStreams = Pick<ChildProcess, 'stdout' | 'stderr'>;

/**
 * Collects a child's stdout and stderr, and watches for `marker`. Only the newest chunk (with the
 * last `marker.length - 1` characters before it, in case the marker straddles chunks) is searched,
 * and not at all once the marker was seen: a gateway logs a line per request, and searching the
 * whole output on every chunk cost the test process CPU that grew with the square of the log
 * (0.6–0.9 of a core during a benchmark's read load, taken from the processes it measured).
 */
export function collectOutput(child: OutputStreams, marker: string): ProcessOutput {
  const chunks: string[] = [];
  let joined = '';
  let tail = '';
  let found = false;
  let resolveSeen: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => (resolveSeen = resolve));
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    chunks.push(text);
    if (found) return;
    const window = tail + text;
    if (window.includes(marker)) {
      found = true;
      resolveSeen();
    }
    tail = marker.length > 1 ? window.slice(1 - marker.length) : '';
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return {
    seen,
    text: () => {
      if (chunks.length > 0) joined += chunks.splice(0).join('');
      return joined;
    },
  };
}
