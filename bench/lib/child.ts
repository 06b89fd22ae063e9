import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildRun<T> {
  pid: number;
  /** The JSON object the process printed as its last line. */
  result: Promise<T>;
}

/** Runs a TypeScript script as a process of its own; its last stdout line is its result (JSON). */
export function runChild<T>(script: string, env: Record<string, string>): ChildRun<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const result = new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`${script} exited with ${code}:\n${out.slice(-2000)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} printed no result:\n${out.slice(-2000)}`));
      }
    });
  });
  return { pid: child.pid!, result };
}

/**
 * Runs `fn` against a server script running as a process of its own (it prints `listening
 * <port>` once it listens and stops on SIGTERM), then stops it.
 */
export async function withServerProcess<T>(script: string, env: Record<string, string>, fn: (url: string, pid: number) => Promise<T>): Promise<T> {
  const server = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening (\d+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      server.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
    });
    return await fn(`http://127.0.0.1:${port}`, server.pid!);
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}
