import type { BattleInputs, CreateBattleRequest } from '@duet/contracts';
import type { Language } from '@duet/contracts/limits';
import type { ToolDefinition } from '@duet/contracts/tools';
import type { Draft, InputField } from './tool-draft.ts';
import { INPUT_FIELDS } from './tool-draft.ts';

const trimmed = (value: string): string | undefined => value.trim() || undefined;

/** How each input of a draft is sent: trimmed, and left out when there is nothing in it. */
const TO_INPUT: { [K in InputField]: (value: Draft[K]) => BattleInputs[K] } = {
  poemTitle: trimmed,
  keywords: (keywords) => {
    const filled = keywords.map((k) => k.trim()).filter(Boolean);
    return filled.length ? filled : undefined;
  },
  genre: trimmed,
  language: (language) => language,
  category: (category) => category || undefined,
};

function putInput<K extends InputField>(inputs: BattleInputs, name: K, draft: Draft): void {
  const value = TO_INPUT[name](draft[name]);
  if (value !== undefined) inputs[name] = value;
}

/**
 * The request a draft makes: only the inputs the tool takes, only those filled in, and the
 * question text unless the tool does not need one and it is blank.
 */
export function requestFromDraft(tool: ToolDefinition, draft: Draft, lang: Language): CreateBattleRequest {
  const inputs: BattleInputs = {};
  for (const name of INPUT_FIELDS) {
    if (tool.fields[name]) putInput(inputs, name, draft);
  }
  const text = tool.fields.text === 'required' || draft.text.trim() ? draft.text : '';
  return { tool: tool.slug, inputs, text, lang };
}
