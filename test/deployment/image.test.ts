// The image as operators get it, checked on the built image itself (not on the Dockerfile).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker, IMAGE, ROOT } from './compose.ts';

/** Runs a command in a fresh container of the image, as the image's own user unless `user` is given. */
const inImage = (args: string[], user?: string): Promise<string> => docker('run', '--rm', ...(user ? ['--user', user] : []), '--entrypoint', args[0]!, IMAGE, ...args.slice(1));

describe('the production image', () => {
  it('runs as node with NODE_ENV=production, the gateway by default', async () => {
    const config = JSON.parse(await docker('image', 'inspect', '-f', '{{ json .Config }}', IMAGE)) as { User: string; Env: string[]; Cmd: string[] };
    expect(config.User).toBe('node');
    expect(config.Env).toContain('NODE_ENV=production');
    expect(config.Cmd).toEqual(['node', '--import', 'tsx', 'server/src/main.ts']);
    expect(await inImage(['id', '-un'])).toBe('node');
    expect(await inImage(['node', '-p', 'process.env.NODE_ENV'])).toBe('production');
  });

  it('holds production dependencies only', async () => {
    // The project's development dependencies that no production package needs: none may be installed.
    const manifests = ['.', 'contracts', 'ratings', 'platform', 'server', 'worker', 'client'].map((dir) => JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> });
    const production = new Set(
      execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
        .split('\n')
        .map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(p)?.[1])
        .filter((name): name is string => !!name),
    );
    const dev = [...new Set(manifests.flatMap((m) => Object.keys(m.devDependencies ?? {})))].filter((name) => !production.has(name));
    expect(dev).toEqual(expect.arrayContaining(['vitest', 'eslint', 'testcontainers']));
    const present = await inImage(['sh', '-c', `cd /app/node_modules && for p in ${dev.join(' ')}; do [ -e "$p" ] && echo "$p"; done; true`]);
    expect(present).toBe('');
    // What the gateway and the worker load is there: both configurations load through tsx.
    await expect(inImage(['node', '--import', 'tsx', '-e', "await import('./server/src/config.ts'); await import('./worker/src/config.ts'); console.log('ok')"])).resolves.toBe('ok');
  });

  it('contains no .env file, key or credential anywhere', async () => {
    const found = await inImage(
      ['sh', '-c', "find / -xdev \\( -name '.env' -o -name '.env.*' -o -name '*.pem' -o -name '*.key' -o -name '*.p12' -o -name '*.pfx' -o -name '*service-account*.json' -o -name '*firebase-adminsdk*.json' -o -name '.npmrc' \\) -not -path '/proc/*' -not -path '/usr/share/*' -not -path '/etc/ssl/*' -not -path '/usr/lib/ssl/*' 2>/dev/null; true"],
      'root',
    );
    expect(found.split('\n').filter((f) => f && !f.includes('/node_modules/'))).toEqual([]);
    const env = JSON.parse(await docker('image', 'inspect', '-f', '{{ json .Config.Env }}', IMAGE)) as string[];
    expect(env.filter((e) => /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i.test(e.split('=')[0]!))).toEqual([]);
  });
});
