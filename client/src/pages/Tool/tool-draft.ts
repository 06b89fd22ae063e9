import { LANGUAGES, LIMITS } from '@duet/contracts/limits';
import type { Language } from '@duet/contracts/limits';
import { ZBattleInputsSchema } from '@duet/contracts/schemas/inputs.schema';

/** The tool inputs a form can hold, named as the shared schema names them. */
export const INPUT_FIELDS = ZBattleInputsSchema.keyof().options;
export type InputField = (typeof INPUT_FIELDS)[number];

/** The choices of the `category` input. */
export const CATEGORIES = ZBattleInputsSchema.shape.category.unwrap().options;
export type Category = (typeof CATEGORIES)[number];

/** What each input holds while the visitor types: text as typed, all five keyword boxes, '' for no category. */
interface DraftInputs {
  poemTitle: string;
  keywords: string[];
  genre: string;
  language: Language;
  category: Category | '';
}

/**
 * The unfinished form: one entry per input of the shared schema (a new input there is a type
 * error here until the form holds it), plus the question text.
 */
export type Draft = { [K in InputField]: DraftInputs[K] } & { text: string };

export const emptyDraft = (language: Language): Draft => ({
  poemTitle: '',
  keywords: Array.from({ length: LIMITS.keywordsMax }, () => ''),
  genre: '',
  language,
  category: '',
  text: '',
});

/** Where a tool's draft is kept. */
export const draftKey = (tool: string): string => `duet_draft_${tool}`;

const isLanguage = (v: unknown): v is Language => (LANGUAGES as readonly unknown[]).includes(v);
const isCategory = (v: unknown): v is Category => (CATEGORIES as readonly unknown[]).includes(v);

/**
 * A stored draft read back: what is missing or of the wrong kind starts empty (`language` as
 * given), and the keywords always fill the five boxes.
 */
export function parseDraft(raw: string | null, language: Language): Draft {
  const base = emptyDraft(language);
  if (!raw) return base;
  let saved: unknown;
  try {
    saved = JSON.parse(raw);
  } catch {
    return base;
  }
  if (typeof saved !== 'object' || saved === null) return base;
  const s = saved as Record<string, unknown>;
  const text = (key: 'poemTitle' | 'genre' | 'text') => (typeof s[key] === 'string' ? s[key] : base[key]);
  const keywords = Array.isArray(s.keywords) ? s.keywords.map(String) : [];
  return {
    poemTitle: text('poemTitle'),
    keywords: base.keywords.map((_, i) => keywords[i] ?? ''),
    genre: text('genre'),
    language: isLanguage(s.language) ? s.language : base.language,
    category: isCategory(s.category) ? s.category : '',
    text: text('text'),
  };
}

/** The tool's draft kept in `storage`, or an empty one. */
export function loadDraft(storage: Pick<Storage, 'getItem'>, tool: string, language: Language): Draft {
  try {
    return parseDraft(storage.getItem(draftKey(tool)), language);
  } catch {
    return emptyDraft(language);
  }
}

/** Keeps the tool's draft in `storage`; a full or refused storage only loses the draft. */
export function saveDraft(storage: Pick<Storage, 'setItem'>, tool: string, draft: Draft): void {
  try {
    storage.setItem(draftKey(tool), JSON.stringify(draft));
  } catch {
    // Nothing to do: the form works without a saved draft.
  }
}
