/**
 * `npm run bench -- <name> [--quick] [options]`: runs `bench/<name>.bench.ts` as its own process.
 * Each benchmark starts what it measures as separate processes (gateway, workers, load), prints
 * a readable table with its anchor from the same run, and as its last line one JSON object of its
 * figures. `--quick` is a short smoke run (part of `npm test`, without timing assertions).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const names = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const [name, ...rest] = process.argv.slice(2);
if (!name || !existsSync(`${here}${name}.bench.ts`)) {
  console.error(`Usage: npm run bench -- <name> [--quick] [options]\nBenchmarks: ${names.join(', ')}`);
  process.exit(2);
}
const run = spawnSync(process.execPath, ['--import', 'tsx', `${here}${name}.bench.ts`, ...rest], { stdio: 'inherit' });
process.exit(run.status ?? 1);
