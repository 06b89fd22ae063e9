/** Numbers, money and times as the console shows them, in the page's language. */

export function formatUsd(value: number, lang: string): string {
  // Cents hide what small models cost: below a dollar, four decimals.
  const digits = value !== 0 && Math.abs(value) < 1 ? 4 : 2;
  return new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: digits }).format(value);
}

export const formatNumber = (value: number, lang: string, maxDigits = 1): string =>
  new Intl.NumberFormat(lang, { maximumFractionDigits: maxDigits }).format(value);

export const formatDateTime = (iso: string, lang: string): string =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

export const formatTime = (iso: string, lang: string): string => new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(iso));

/** Seconds as minutes and seconds (or hours and minutes). */
export function splitDuration(seconds: number): { h: number; m: number; s: number } {
  const total = Math.max(0, Math.round(seconds));
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

/** A share as a percentage, or null without a whole. */
export const share = (part: number, whole: number): number | null => (whole > 0 ? (part / whole) * 100 : null);

/** A money amount typed in a field: a number, null for an empty field, NaN for anything else. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}
