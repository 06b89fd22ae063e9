import OpenAI from 'openai';
import type { ModerationContent, ModerationVerdict, Moderator } from './moderator.ts';

/** Connection settings of OpenAI's moderation endpoint (or a compatible server). */
export interface OpenAIModeratorOptions {
  apiKey: string;
  /** Ends in `/v1`; without it the SDK's default (api.openai.com). */
  baseURL?: string | undefined;
  /** e.g. `omni-moderation-latest`. */
  model: string;
  /** Longest wait for an answer, ms. */
  timeoutMs: number;
}

type ModerationInput = OpenAI.ModerationCreateParams['input'];

/**
 * A moderator on `POST /v1/moderations`, through the official SDK. The texts go as a list of
 * strings (one result each); with an image, as one text part and the image (omni models read
 * both). The battle is flagged when any result is. The SDK never retries: a failure throws,
 * and the periodic sweep tries again later.
 */
export function createOpenAIModerator(opts: OpenAIModeratorOptions): Moderator {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
  return {
    kind: 'openai',
    moderate: async (content: ModerationContent): Promise<ModerationVerdict> => {
      const response = await client.moderations.create({ model: opts.model, input: inputOf(content) });
      if (response.results.length === 0) throw new Error('The moderation endpoint answered no results');
      const categories = new Set<string>();
      for (const result of response.results) {
        for (const [name, on] of Object.entries(result.categories)) if (on === true) categories.add(name);
      }
      return {
        flagged: response.results.some((r) => r.flagged),
        categories: [...categories].sort(),
        decidedBy: `openai:${response.model || opts.model}`,
      };
    },
  };
}

function inputOf(content: ModerationContent): ModerationInput {
  // The endpoint refuses an empty input; a battle always has at least its answers' texts.
  const texts = content.texts.length ? content.texts : [''];
  if (!content.image) return texts;
  return [
    { type: 'text', text: texts.join('\n\n') },
    { type: 'image_url', image_url: { url: `data:${content.image.mimeType};base64,${content.image.data.toString('base64')}` } },
  ];
}
