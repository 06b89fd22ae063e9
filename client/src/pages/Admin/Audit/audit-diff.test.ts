import { describe, expect, it } from 'vitest';
import { diffOf, shortValue } from './audit-diff.ts';

describe('an audit entry’s diff', () => {
  it('lists only the keys whose values changed', () => {
    expect(diffOf({ weight: 1, label: 'A', enabled: true }, { weight: 5, label: 'A', enabled: true })).toEqual([{ key: 'weight', before: 1, after: 5 }]);
  });

  it('shows an added and a removed key as changes from or to nothing', () => {
    expect(diffOf({ budgetUsdPerDay: 3 }, {})).toEqual([{ key: 'budgetUsdPerDay', before: 3, after: undefined }]);
    expect(diffOf({}, { budgetUsdPerDay: 3 })).toEqual([{ key: 'budgetUsdPerDay', before: undefined, after: 3 }]);
  });

  it('names a change inside a nested object by its dotted path', () => {
    expect(diffOf({ overallUsdPerDay: 5, models: { a: 1, b: 2 } }, { overallUsdPerDay: 5, models: { a: 1, b: 3 } })).toEqual([
      { key: 'models.b', before: 2, after: 3 },
    ]);
  });

  it('lists every key of something created from nothing', () => {
    expect(diffOf(null, { id: 'x', weight: 1 })).toEqual([
      { key: 'id', before: undefined, after: 'x' },
      { key: 'weight', before: undefined, after: 1 },
    ]);
  });

  it('shows values that are not objects whole, and nothing when they are equal', () => {
    expect(diffOf('flagged', 'ok')).toEqual([{ key: '', before: 'flagged', after: 'ok' }]);
    expect(diffOf(null, ['a', 'b'])).toEqual([{ key: '', before: null, after: ['a', 'b'] }]);
    expect(diffOf(null, null)).toEqual([]);
  });

  it('cuts long values short', () => {
    expect(shortValue('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(shortValue(undefined)).toBe('∅');
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
  });
});
