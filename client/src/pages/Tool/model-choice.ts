import type { Meta } from '@duet/contracts';

/** A model a visitor may choose, as `GET /api/meta` lists it. */
export type ModelOption = Meta['models'][number];

/** What the visitor picked for each side; `''` until they pick (the defaults then apply). */
export interface ModelPicks {
  a: string;
  b: string;
}

export const NO_PICKS: ModelPicks = { a: '', b: '' };

/** The models a visitor may choose between, or none when the switch is not offered: fewer than two, or every battle named already. */
export const choosableModels = (meta: Meta | undefined): ModelOption[] =>
  meta && meta.mode !== 'named' && meta.models.length >= 2 ? meta.models : [];

/**
 * The two models a choice stands for: the picks while they are still listed, else the first two
 * models; side b never repeats side a (it takes the next listed model instead).
 */
export function chosenPair(models: readonly ModelOption[], picks: ModelPicks): [string, string] | null {
  if (models.length < 2) return null;
  const listed = (id: string) => models.some((m) => m.id === id);
  const a = listed(picks.a) ? picks.a : models[0]!.id;
  const b = listed(picks.b) && picks.b !== a ? picks.b : models.find((m) => m.id !== a)!.id;
  return [a, b];
}

/** The picks after choosing `id` for `side`: choosing the model the other side holds swaps the two, so they never match. */
export function pickModel(pair: [string, string], side: 'a' | 'b', id: string): ModelPicks {
  const [a, b] = pair;
  if (side === 'a') return { a: id, b: id === b ? a : b };
  return { a: id === a ? b : a, b: id };
}
