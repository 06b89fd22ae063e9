import type { ModelSpec } from '@duet/contracts';
import type { ModelProvider } from '../provider.ts';
import { demoAnswer } from './answer.ts';
import { seedOf } from './context.ts';
import { streamAnswer } from './stream.ts';

/**
 * The built-in demo models Duet uses when no API key is configured.
 *
 * No network and no clock-driven randomness: the answer is a deterministic function of
 * `spec.model` and the visitor's question (`req.context`), written by `demoAnswer`. `'sonnet'`
 * answers as the conversational persona, any other model (`'atlas'`) as the structured one.
 *
 * The answer streams at a realistic pace: a first token after 350–700 ms (fixed per question),
 * then 30–60 tokens per second in chunks of a word or a few characters. `opts.speed` (default 1,
 * from DEMO_SPEED) divides every delay. Output stops near `req.maxTokens` (finish `length`); an
 * aborted `req.signal` stops it at once (finish `cancelled`). One `usage` chunk precedes the `finish`.
 */
export function createDemoProvider(spec: ModelSpec, opts: { speed?: number } = {}): ModelProvider {
  const speed = opts.speed !== undefined && opts.speed > 0 ? opts.speed : 1;
  return {
    spec,
    stream: (req) => streamAnswer(demoAnswer(spec.model, req.context), req, seedOf(spec.model, req.context), speed),
  };
}
