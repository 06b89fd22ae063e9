/** Pure helpers of the leaderboard: the shared rating axis and the "updated …" wording. */

export interface Axis {
  min: number;
  max: number;
  /** Round values inside [min, max] to label and draw grid lines at. */
  ticks: number[];
}

/** 1, 2 or 5 times a power of ten: the step that gives about `target` intervals over `span`. */
function niceStep(span: number, target: number): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/**
 * One axis for every row: from the lowest lower bound to the highest upper bound over the
 * table, with a little room at both ends so the dots and whisker caps are not cut off.
 */
export function ratingAxis(models: ReadonlyArray<{ rating: number; ciLow: number | null; ciHigh: number | null }>): Axis {
  if (models.length === 0) return { min: 0, max: 1, ticks: [] };
  let lo = Math.min(...models.map((m) => Math.min(m.ciLow ?? m.rating, m.rating)));
  let hi = Math.max(...models.map((m) => Math.max(m.ciHigh ?? m.rating, m.rating)));
  if (!(hi - lo > 1)) {
    // One model, or no intervals: centre it on a modest range.
    lo -= 50;
    hi += 50;
  }
  const pad = (hi - lo) * 0.04;
  const min = lo - pad;
  const max = hi + pad;
  const step = niceStep(max - min, 4);
  const ticks: number[] = [];
  // `+ 0` turns a tick of −0 (an axis starting just below zero) into 0.
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) ticks.push(Math.round(v * 1e6) / 1e6 + 0);
  return { min, max, ticks };
}

/** Where `value` sits on the axis, in percent of its width (clamped to 0–100). */
export function axisPercent(axis: Axis, value: number): number {
  const p = ((value - axis.min) / (axis.max - axis.min)) * 100;
  return Math.max(0, Math.min(100, p));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago" / "5분 전"; "now" for anything under a minute (or slightly in the future). */
export function relativeTime(iso: string, now: number, lang: string): string {
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  let value = Math.min(0, (new Date(iso).getTime() - now) / 1000);
  if (value > -60) return rtf.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}
