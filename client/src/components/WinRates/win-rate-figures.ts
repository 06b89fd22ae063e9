import type { WinRate } from '@duet/contracts';

/** One model's win rate as the bar shows it. */
export interface WinRateFigures {
  /** The win rate in percent, within 0–100: the bar's width and the meter's value. */
  value: number;
  /**
   * The Wilson 95% interval in percent, within 0–100 and always around `value`; null when the
   * server sent none (one that predates it).
   */
  interval: { low: number; high: number } | null;
  /** The figures written out in the visitor's language. */
  text: {
    /** The win rate with at most one decimal: "66.7". */
    value: string;
    /** The interval's ends as whole numbers: "21", "94" (the rate's own value without an interval). */
    low: string;
    high: string;
    wins: string;
    ties: string;
    bothBad: string;
    battles: string;
  };
}

const clamp = (n: number, min: number, max: number): number => Math.max(min, Math.min(max, n));

/** Turns win rates into what the bars show, with numbers written as `lang` writes them. */
export function winRateFormatter(lang: string): (rate: WinRate) => WinRateFigures {
  const pct = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  const num = new Intl.NumberFormat(lang);
  return (r) => {
    const value = clamp(r.winRate, 0, 100);
    // The interval says how far the true rate may be from this one, given so few battles.
    const interval =
      Number.isFinite(r.winRateLow) && Number.isFinite(r.winRateHigh)
        ? { low: clamp(r.winRateLow, 0, value), high: clamp(r.winRateHigh, value, 100) }
        : null;
    return {
      value,
      interval,
      text: {
        value: pct.format(value),
        low: whole.format(interval?.low ?? value),
        high: whole.format(interval?.high ?? value),
        wins: num.format(r.wins),
        ties: num.format(r.ties),
        bothBad: num.format(r.bothBad),
        battles: num.format(r.battles),
      },
    };
  };
}
