/**
 * Names of models and their makers that spoil a blind battle when an answer says them. Kept
 * here, in Korean and English; matched as whole words (Latin) or as substrings (Hangul).
 * Add to it as new models join the roster.
 *
 * A vote on a blind battle does not count when an answer names one (`vote_on_battle()`, migration
 * 1764800000000): the worker decides it for each answer as it stores it (`answers.names_model`),
 * the gateway for answers stored without it. Answers already stored keep the flag they were given:
 * a word added here applies to answers stored from then on.
 */
export const MODEL_NAME_WORDS: readonly string[] = [
  // Makers
  'openai', 'open ai', 'anthropic', 'google deepmind', 'deepmind', 'meta ai', 'mistral ai',
  // Models and families. Words that are also ordinary words (sonnet, haiku, opus, bard, llama,
  // mistral, grok) are left out: a poem called a sonnet must not spoil a battle.
  'gpt', 'gpt-3', 'gpt-3.5', 'gpt-4', 'gpt-4o', 'gpt-4.1', 'gpt-5', 'chatgpt',
  'claude', 'gemini', 'llama 3', 'llama-3', 'mixtral', 'qwen', 'deepseek',
  // Korean spellings (not 라마, which is inside 드라마)
  '오픈ai', '오픈에이아이', '앤트로픽', '앤스로픽', '챗gpt', '챗지피티', '지피티', '클로드', '제미나이', '딥시크',
];

const latin = MODEL_NAME_WORDS.filter((w) => /^[\x20-\x7e]+$/.test(w)).sort((x, y) => y.length - x.length);
const hangul = MODEL_NAME_WORDS.filter((w) => !/^[\x20-\x7e]+$/.test(w));
const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// "gpt" must match "GPT-4o" and "gpt4" but not "egypt"; word edges are letters and digits.
const LATIN_PATTERN = new RegExp(`(?<![a-z0-9])(?:${latin.map(escape).join('|')})(?![a-z])`, 'i');

/** Whether an answer names a model or its maker: what `answers.names_model` stores. */
export const namesModel = (text: string): boolean => mentionedModelName(text) !== null;

/** The first model or maker name an answer mentions, or null. */
export function mentionedModelName(text: string): string | null {
  const lower = text.toLowerCase();
  const m = LATIN_PATTERN.exec(lower);
  if (m) return m[0];
  return hangul.find((w) => lower.includes(w)) ?? null;
}
