import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { collectOutput } from '../helpers/process-output.ts';

/** A child that writes `parts` to stdout (or stderr for parts starting with `!`), one every 30 ms. */
function writer(parts: string[]) {
  const script = `const parts = ${JSON.stringify(parts)};
    let i = 0;
    const next = () => {
      if (i === parts.length) return;
      const p = parts[i++];
      (p.startsWith('!') ? process.stderr : process.stdout).write(p.startsWith('!') ? p.slice(1) : p);
      setTimeout(next, 30);
    };
    next();`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('a child process output collector', () => {
  it('sees a marker written in two pieces, and keeps every byte of both streams in order', async () => {
    const parts = ['starting\n', 'gateway lis', 'tening on 1\n', ...Array.from({ length: 50 }, (_, i) => `request ${i}\n`), '!a warning\n'];
    const child = writer(parts);
    const out = collectOutput(child, 'gateway listening');
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await out.seen;
    expect(out.text()).toContain('gateway listening');
    await exited;
    expect(out.text()).toBe(parts.map((p) => (p.startsWith('!') ? p.slice(1) : p)).join(''));
  });

  it('never reports a marker the process did not write', async () => {
    const child = writer(['gateway', ' is not ', 'listening\n']);
    const out = collectOutput(child, 'gateway listening');
    let seen = false;
    void out.seen.then(() => (seen = true));
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toBe(false);
    expect(out.text()).toBe('gateway is not listening\n');
  });
});
