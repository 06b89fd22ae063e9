import type { ToolDefinition } from '@duet/contracts/tools';

/** What a tool's free-text field asks for: a question, or for the word chain a single word. */
export type TextKind = 'question' | 'word';

const WORD_TOOLS: ReadonlySet<string> = new Set(['game-ending-word']);

export const textKindOf = (tool: Pick<ToolDefinition, 'slug'>): TextKind => (WORD_TOOLS.has(tool.slug) ? 'word' : 'question');

/** Keys (in the `battle` namespace) of the text field's label, placeholder and messages. */
export interface TextFieldKeys {
  label: string;
  placeholder: string;
  /** Shown when a required text is missing. */
  required: string;
  /** Takes `length`, `max` and `over`. */
  tooLong: string;
}

/** The text field's words for a tool: optional extra wishes, a required question, or a word to chain from. */
export function textFieldKeys(tool: Pick<ToolDefinition, 'slug' | 'fields'>): TextFieldKeys {
  if (textKindOf(tool) === 'word') {
    return { label: 'form.word', placeholder: 'form.wordPlaceholder', required: 'validation.wordRequired', tooLong: 'validation.wordTooLong' };
  }
  const required = tool.fields.text === 'required';
  return {
    label: required ? 'form.textRequired' : 'form.textOptional',
    placeholder: required ? 'form.textPlaceholderRequired' : 'form.textPlaceholderOptional',
    required: 'validation.textRequired',
    tooLong: 'validation.textTooLong',
  };
}
