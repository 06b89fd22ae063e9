import type { BattleInputs } from '@duet/contracts';
import type { Language } from '@duet/contracts/limits';

/** How a chosen language of the piece reads, on the form and in history (keys of the `battle` namespace). */
export const LANGUAGE_LABELS: Record<Language, string> = { ko: 'form.languageKo', en: 'form.languageEn' };

/** How a chosen category reads, on the form and in history (keys of the `battle` namespace). */
export const CATEGORY_LABELS: Record<NonNullable<BattleInputs['category']>, string> = {
  drama: 'form.categoryDrama',
  film: 'form.categoryFilm',
};
