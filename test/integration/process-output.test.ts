import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collectOutput } from '../helpers/process-output.ts';

/** Output streams whose chunks the test writes one by one, exactly as given. */
function fakeChild() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  return { child: { stdout, stderr } as never, stdout, stderr };
}

/** Lets the streams deliver what was written. */
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('a child process output collector', () => {
  it('sees a marker written across three chunks and both streams, and keeps every byte in order', async () => {
    const { child, stdout, stderr } = fakeChild();
    const out = collectOutput(child, 'gateway listening');
    for (const [stream, text] of [[stdout, 'starting\ngate'], [stderr, 'way lis'], [stdout, 'tening on 1\n']] as const) {
      stream.write(text);
      await flushed();
    }
    await out.seen;
    for (let i = 0; i < 50; i++) stdout.write(`request ${i}\n`);
    await flushed();
    expect(out.text()).toBe(`starting\ngateway listening on 1\n${Array.from({ length: 50 }, (_, i) => `request ${i}\n`).join('')}`);
    stdout.write('later\n');
    await flushed();
    expect(out.text().endsWith('request 49\nlater\n')).toBe(true);
  });

  it('never reports a marker the output does not hold, however it is cut', async () => {
    const { child, stdout } = fakeChild();
    const out = collectOutput(child, 'gateway listening');
    let seen = false;
    void out.seen.then(() => (seen = true));
    for (const text of ['gateway', ' lis', 'ten', '\ngateway listenin', '!']) {
      stdout.write(text);
      await flushed();
    }
    await flushed();
    expect(seen).toBe(false);
    expect(out.text()).toBe('gateway listen\ngateway listenin!');
  });

  it('reads a real child process to its end', async () => {
    const child = spawn(process.execPath, ['-e', "process.stdout.write('worker '); setTimeout(() => process.stdout.write('ready\\n'), 20)"], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = collectOutput(child, 'worker ready');
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    await out.seen;
    await closed;
    expect(out.text()).toBe('worker ready\n');
  });
});
