import type { FinishReason } from '@duet/contracts';
import type { ChatRequest, StreamChunk } from '../provider.ts';

/** Splits an answer into stream chunks of a word or a few characters; they concatenate back exactly. */
export function toChunks(text: string): string[] {
  const out: string[] = [];
  for (const [piece] of text.matchAll(/\s*\S+|\s+/g)) {
    const cps = Array.from(piece);
    if (cps.length <= 8) out.push(piece);
    else for (let i = 0; i < cps.length; i += 5) out.push(cps.slice(i, i + 5).join(''));
  }
  return out;
}

/** Rough token count of one chunk: about four characters, at least one. */
export const tokensOf = (chunk: string): number => Math.max(1, Math.ceil(Array.from(chunk.trim()).length / 4));

/** Waits `ms`; resolves `false` at once (timer cleared) if `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Delays shorter than this are carried over and slept in one go, so very high speeds stay fast. */
const MIN_SLEEP_MS = 4;

/**
 * Streams `answer` like a live model: a first token after 350–700 ms (fixed by `seed`), then
 * 30–60 tokens a second, every delay divided by `speed`. Stops near `req.maxTokens` (`length`) and
 * at once when `req.signal` aborts (`cancelled`); one `usage` chunk precedes the single `finish`.
 */
export async function* streamAnswer(answer: string, req: ChatRequest, seed: number, speed: number): AsyncGenerator<StreamChunk> {
  const { signal } = req;
  const chunks = toChunks(answer);
  const ttftMs = 350 + (seed % 351);
  const tokensPerSec = 30 + ((seed >>> 12) % 31);
  const inputTokens = Math.ceil((req.system.length + req.user.length) / 4) + (req.image ? 765 : 0);
  let outputTokens = 0;
  let reason: FinishReason = 'stop';

  if (!(await sleep(ttftMs / speed, signal))) reason = 'cancelled';
  else {
    let owed = 0;
    for (const chunk of chunks) {
      if (signal.aborted) {
        reason = 'cancelled';
        break;
      }
      const tokens = tokensOf(chunk);
      if (outputTokens + tokens > req.maxTokens) {
        reason = 'length';
        break;
      }
      yield { type: 'text', text: chunk };
      outputTokens += tokens;
      owed += (tokens * 1000) / tokensPerSec / speed;
      if (owed >= MIN_SLEEP_MS) {
        if (!(await sleep(owed, signal))) {
          reason = 'cancelled';
          break;
        }
        owed = 0;
      }
    }
  }
  if (reason !== 'cancelled' && signal.aborted) reason = 'cancelled';
  yield { type: 'usage', inputTokens, outputTokens };
  yield { type: 'finish', reason };
}
