import type { BattleMode, UncountedReason } from '@duet/shared';

/**
 * Names of models and their makers that spoil a blind battle when an answer says them. Kept
 * here, in Korean and English; matched as whole words (Latin) or as substrings (Hangul).
 * Add to it as new models join the roster.
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

/** The first model or maker name an answer mentions, or null. */
export function mentionedModelName(text: string): string | null {
  const lower = text.toLowerCase();
  const m = LATIN_PATTERN.exec(lower);
  if (m) return m[0];
  return hangul.find((w) => lower.includes(w)) ?? null;
}

export interface BattleFacts {
  mode: BattleMode;
  answers: Array<{ text: string; finishReason: string }>;
}

export type Countability = { counted: true; reason: null } | { counted: false; reason: UncountedReason };

/**
 * Whether a vote on this battle counts toward win rates and ratings: only a blind battle whose
 * two sides both finished without error (stop or length), and where neither answer names a model
 * or its maker. The first rule broken is the reason.
 *
 * One rule more is applied where the vote is stored, since only there is it exact when votes
 * arrive at once: past `VOTE_DAILY_CAP` votes of one voter in a UTC day (counted or not), a vote
 * that would count is kept but marked `daily_cap` (`cast_vote()`, migration 1764300000000).
 */
export function voteCountability(f: BattleFacts): Countability {
  if (f.mode !== 'blind') return { counted: false, reason: 'named_mode' };
  if (f.answers.length < 2 || f.answers.some((a) => a.finishReason !== 'stop' && a.finishReason !== 'length')) {
    return { counted: false, reason: 'side_failed' };
  }
  if (f.answers.some((a) => mentionedModelName(a.text) !== null)) return { counted: false, reason: 'model_named' };
  return { counted: true, reason: null };
}
