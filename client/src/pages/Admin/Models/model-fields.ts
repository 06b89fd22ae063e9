import type { ModelPatch, RosterModel } from '@duet/contracts';
import { parseAmount } from '../format.ts';

/** A model's editable figures as typed in its fields. */
export interface ModelFields {
  label: string;
  weight: string;
  inputUsdPerMTok: string;
  outputUsdPerMTok: string;
  /** Empty: no budget of its own. */
  budgetUsdPerDay: string;
}

export const fieldsOf = (m: RosterModel): ModelFields => ({
  label: m.label,
  weight: String(m.weight),
  inputUsdPerMTok: String(m.inputUsdPerMTok ?? 0),
  outputUsdPerMTok: String(m.outputUsdPerMTok ?? 0),
  budgetUsdPerDay: m.budgetUsdPerDay === undefined ? '' : String(m.budgetUsdPerDay),
});

/**
 * The patch the fields ask for (only what differs from the model), the fields whose text is not
 * a valid value, and whether anything was touched. No patch while a field is invalid.
 */
export function patchOf(m: RosterModel, f: ModelFields): { patch: ModelPatch | null; invalid: Array<keyof ModelFields>; dirty: boolean } {
  const patch: ModelPatch = {};
  const invalid: Array<keyof ModelFields> = [];
  const label = f.label.trim();
  if (!label || label.length > 100) invalid.push('label');
  else if (label !== m.label) patch.label = label;

  const weight = parseAmount(f.weight);
  if (weight === null || Number.isNaN(weight) || weight <= 0 || weight > 1_000) invalid.push('weight');
  else if (weight !== m.weight) patch.weight = weight;

  for (const key of ['inputUsdPerMTok', 'outputUsdPerMTok'] as const) {
    const price = parseAmount(f[key]);
    if (price === null || Number.isNaN(price) || price > 10_000) invalid.push(key);
    else if (price !== (m[key] ?? 0)) patch[key] = price;
  }

  const budget = parseAmount(f.budgetUsdPerDay);
  if (Number.isNaN(budget) || budget === 0 || (budget !== null && budget > 10_000_000)) invalid.push('budgetUsdPerDay');
  else if ((budget ?? undefined) !== m.budgetUsdPerDay) patch.budgetUsdPerDay = budget;

  const dirty = JSON.stringify(f) !== JSON.stringify(fieldsOf(m));
  return { patch: invalid.length === 0 && Object.keys(patch).length > 0 ? patch : null, invalid, dirty };
}
