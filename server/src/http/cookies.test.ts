import { describe, expect, it } from 'vitest';
import { cookieValue } from './cookies.ts';

describe('cookieValue', () => {
  it('finds one cookie among others, and nothing in a missing or foreign header', () => {
    expect(cookieValue('a=1; duet_operator=xyz.abc; b=2', 'duet_operator')).toBe('xyz.abc');
    expect(cookieValue('duet_operator_old=1', 'duet_operator')).toBeUndefined();
    expect(cookieValue(undefined, 'duet_operator')).toBeUndefined();
    expect(cookieValue('=x; ;;', 'duet_operator')).toBeUndefined();
  });
});
