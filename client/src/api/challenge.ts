import type { Challenge } from '@duet/contracts/schemas/challenge.schema';
import { solveChallengeWorkers } from 'altcha-lib';
import { ApiError, api } from './http.ts';

/** Keeps one solved challenge ready for the next question. */
export interface ChallengeSolver {
  /** Starts fetching and solving one now, if none is ready or under way. */
  prepare: () => void;
  /** The solved challenge for a battle (waiting for the solve if it is still running), then starts the next. */
  take: () => Promise<string>;
}

/** Workers a solve runs in: two where the device has them (a phone's cores are also the page's). */
const workers = () => Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));

/** The User Timing entry each solve leaves (DevTools' performance panel shows it; the benchmark reads it). */
const SOLVE_MEASURE = 'duet:challenge-solve';

/** Solves `challenge` in Web Workers; the payload a battle carries (base64 of the JSON challenge and solution). */
async function solve(challenge: Challenge): Promise<string> {
  const start = performance.now();
  const solution = await solveChallengeWorkers({
    challenge,
    concurrency: workers(),
    createWorker: () => new Worker(new URL('./challenge.worker.ts', import.meta.url), { type: 'module' }),
  });
  if (!solution) throw new Error('The challenge could not be solved in time');
  performance.measure(SOLVE_MEASURE, { start });
  return btoa(JSON.stringify({ challenge, solution }));
}

/**
 * A solver for the tool page: it fetches a challenge (`GET /api/challenge`) and solves it while
 * the visitor writes their question, so asking adds no wait; each solution is used once, and the
 * next is prepared as soon as one is taken. A failed fetch or solve is tried again at `take`.
 */
export function createChallengeSolver(fetchChallenge: () => Promise<Challenge> = () => api<Challenge>('/api/challenge')): ChallengeSolver {
  let ready: Promise<string> | null = null;
  const prepare = () => {
    if (ready) return;
    const solving = fetchChallenge().then(solve);
    // A failure is not kept: the next `take` starts over.
    solving.catch(() => {
      if (ready === solving) ready = null;
    });
    ready = solving;
  };
  return {
    prepare,
    async take() {
      prepare();
      const payload = ready!;
      ready = null;
      try {
        return await payload;
      } finally {
        prepare();
      }
    },
  };
}

/** The page's one solver: kept across tool pages, so moving between them solves nothing twice. */
export const challengeSolver = createChallengeSolver();

/** Whether a failed battle asked for a (new) solved challenge. */
export const challengeRefused = (err: unknown): boolean =>
  err instanceof ApiError && (err.code === 'challenge_required' || err.code === 'challenge_replayed');

/**
 * Creates a battle, with a solved challenge when `needed` (the deployment says so in `/api/meta`);
 * one the gateway refuses (expired, used, or the meta not known yet) is answered once more with a
 * fresh solution.
 */
export async function askWithChallenge<T>(needed: boolean, ask: (challenge?: string) => Promise<T>): Promise<T> {
  try {
    return await ask(needed ? await challengeSolver.take() : undefined);
  } catch (err) {
    if (!challengeRefused(err)) throw err;
    return ask(await challengeSolver.take());
  }
}
