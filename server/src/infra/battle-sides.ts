import type { ModelSpec, Side } from '@duet/contracts';

/** A battle's two models as its row stores them (`battles.model_a`, ...). */
export interface RawSides {
  model_a: string;
  label_a: string;
  family_a: ModelSpec['family'];
  model_b: string;
  label_b: string;
  family_b: ModelSpec['family'];
}

/** Each side's model as the rest of the gateway speaks of it. */
export type BattleSides = Record<Side, { model: string; label: string; family: ModelSpec['family'] }>;

/** The sides of a battle row: read by the battles' and the history's queries alike. */
export const sidesOf = (r: RawSides): BattleSides => ({
  a: { model: r.model_a, label: r.label_a, family: r.family_a },
  b: { model: r.model_b, label: r.label_b, family: r.family_b },
});
