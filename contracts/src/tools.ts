import type { BattleInputs } from './schemas/inputs.schema.ts';
import type { Language } from './limits.ts';
import { LIMITS, PRODUCT } from './limits.ts';

export type ImageRule = 'none' | 'optional' | 'required';
export type FieldRule = 'required' | 'optional';

/** Which form fields a tool shows, and which of them must be filled. */
export interface ToolFields {
  text: FieldRule;
  poemTitle?: FieldRule;
  /** Keyword fields: at least `min` of the five. */
  keywords?: { min: number };
  genre?: FieldRule;
  language?: FieldRule;
  category?: FieldRule;
}

export interface CardImage {
  src: string;
  name: string;
  /** Shown instead of `src` when the interface language is English. */
  engSrc?: string;
}

/** The messages sent to both models for one battle. */
export interface BuiltPrompt {
  system: string;
  user: string;
}

export interface PromptContext {
  inputs: BattleInputs;
  text: string;
  hasImage: boolean;
  /** The interface language of the visitor who asked. */
  lang: Language;
}

/** One of the 13 activities. */
export interface ToolDefinition {
  /** Canonical id, the route without product suffix: `title-academy`, `makeLyrics`, `math-solve`. */
  slug: string;
  /** The public route, exactly as the specification lists it. */
  route: string;
  images: CardImage[];
  /** Translation keys in the `contents` namespace. */
  titleKey: string;
  descriptionKey: string;
  fields: ToolFields;
  image: ImageRule;
  /** Output token cap for each model. */
  maxTokens: number;
  /** Builds the system and user messages in the visitor's language. */
  prompt: (ctx: PromptContext) => BuiltPrompt;
}

/** What the public API serves about a tool (no prompt code). */
export type PublicTool = Omit<ToolDefinition, 'prompt'>;

export const routeFor = (slug: string, suffix = ''): string => `/${slug}-${PRODUCT}${suffix}`;
export { LIMITS };
