import type { WinRate } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { winRateFormatter } from './win-rate-figures.ts';

const rate = (over: Partial<WinRate>): WinRate => ({
  model: 'demo-atlas',
  label: 'Demo Atlas',
  family: 'gpt',
  battles: 0,
  wins: 0,
  losses: 0,
  ties: 0,
  bothBad: 0,
  winRate: 0,
  winRateLow: 0,
  winRateHigh: 100,
  ...over,
});

const en = winRateFormatter('en');
const ko = winRateFormatter('ko');

describe('win-rate figures', () => {
  it('shows a model with no battles as 0% with the whole range as its interval', () => {
    const f = en(rate({}));
    expect(f.value).toBe(0);
    expect(f.interval).toEqual({ low: 0, high: 100 });
    expect(f.text).toMatchObject({ value: '0', low: '0', high: '100', battles: '0', wins: '0' });
  });

  it('shows 0% after losses with the interval that says how little five battles tell', () => {
    const f = en(rate({ battles: 5, losses: 5, winRate: 0, winRateLow: 0, winRateHigh: 43.4 }));
    expect(f.value).toBe(0);
    expect(f.interval).toEqual({ low: 0, high: 43.4 });
    expect(f.text).toMatchObject({ value: '0', low: '0', high: '43' });
  });

  it('writes the rate with at most one decimal and the interval in whole numbers', () => {
    const f = en(rate({ battles: 3, wins: 2, losses: 1, winRate: 66.67, winRateLow: 20.77, winRateHigh: 93.85 }));
    expect(f.text).toMatchObject({ value: '66.7', low: '21', high: '94' });
    expect(en(rate({ winRate: 50, winRateLow: 49.5, winRateHigh: 50.5 })).text).toMatchObject({ value: '50', low: '50', high: '51' });
    expect(en(rate({ winRate: 12.25, winRateLow: 0, winRateHigh: 100 })).text.value).toBe('12.3');
  });

  it('keeps the bar within 0–100 and the interval around the rate, whatever the server sent', () => {
    const over = en(rate({ winRate: 104, winRateLow: 97, winRateHigh: 100 }));
    expect(over.value).toBe(100);
    expect(over.interval).toEqual({ low: 97, high: 100 });
    const inverted = en(rate({ winRate: 40, winRateLow: 45, winRateHigh: 30 }));
    expect(inverted.interval).toEqual({ low: 40, high: 40 });
  });

  it('shows no interval when the server sent none', () => {
    const f = en({ ...rate({ winRate: 75 }), winRateLow: undefined, winRateHigh: undefined } as unknown as WinRate);
    expect(f.interval).toBeNull();
    expect(f.text).toMatchObject({ value: '75', low: '75', high: '75' });
  });

  it('writes the counts with thousands separators in Korean and in English', () => {
    const big = rate({ battles: 12_345, wins: 6_789, ties: 1_000, bothBad: 12, winRate: 55, winRateLow: 54.1, winRateHigh: 55.9 });
    const counts = { wins: '6,789', ties: '1,000', bothBad: '12', battles: '12,345' };
    expect(en(big).text).toMatchObject({ ...counts, value: '55', low: '54', high: '56' });
    expect(ko(big).text).toMatchObject({ ...counts, value: '55', low: '54', high: '56' });
    expect(ko(rate({ winRate: 66.67 })).text.value).toBe('66.7');
  });

  it('writes numbers the way the given language does', () => {
    const f = winRateFormatter('de')(rate({ battles: 12_345, winRate: 66.67, winRateLow: 20.77, winRateHigh: 93.85 }));
    expect(f.text).toMatchObject({ value: '66,7', battles: '12.345' });
  });
});
