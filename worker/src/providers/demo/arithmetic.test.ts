import { describe, expect, it } from 'vitest';
import { findCalculations } from './arithmetic.ts';
import { findEquation, solve } from './equation.ts';
import { depreciationOf, vatOf } from './ledger.ts';
import { partsOf } from './facts.ts';

describe('calculations in a question', () => {
  it.each([
    ['Capital of Australia? Also 12 + 7', ['19']],
    ['What is (3 + 4) * 2 and 10 / 4?', ['14', '2.5']],
    ['twelve plus seven', ['19']],
    ['3 곱하기 4는?', ['12']],
    ['150의 20%는?', ['30']],
    ['144의 제곱근', ['12']],
    ['What is 7 x 8?', ['56']],
    ['2024-05-01 회의는 10:30', []],
    ['x^2 - 5x + 6 = 0', []],
  ])('%s → %j', (text, values) => {
    expect(findCalculations(text).map((c) => c.text)).toEqual(values);
  });

  it('splits a question into its parts', () => {
    expect(partsOf('Capital of Australia? Also 12 + 7', 'en')).toEqual(['Capital of Australia?', '12 + 7']);
    expect(partsOf('호주의 수도는? 그리고 12 + 7은?', 'ko')).toEqual(['호주의 수도는?', '12 + 7은?']);
  });
});

describe('equations', () => {
  it.each([
    ['x^2 - 5x + 6 = 0', [2, 3]],
    ['x² + x - 6 = 0', [-3, 2]],
    ['2x + 3 = 11', [4]],
    ['2y^2 + 3y - 2 = 0', [-2, 0.5]],
  ])('%s → %j', (text, roots) => {
    const e = findEquation(text);
    expect(e).toBeDefined();
    expect(e && solve(e)).toEqual(roots);
  });
});

describe('depreciation and VAT', () => {
  it('takes the useful life from its label, not from the last number', () => {
    const d = depreciationOf('1,000,000원, 내용연수 5년, 잔존가치 0, 정액법');
    expect(d).toMatchObject({ cost: 1_000_000, residual: 0, life: 5, method: 'straight' });
    expect(d?.schedule.map((y) => y.expense)).toEqual([200_000, 200_000, 200_000, 200_000, 200_000]);
  });

  it.each([
    ['A machine costs 1,000,000 with residual value 100,000 and a useful life of 5 years.', 180_000],
    ['Equipment bought for $50,000, useful life 4 years, no salvage value, straight-line.', 12_500],
    ['취득원가 5,000,000원, 잔존가치 500,000원, 내용연수 4년, 정률법 40%', 2_000_000],
    ['취득원가 3,000만원, 내용연수 5년, 잔존가치 0원, 이중체감법', 12_000_000],
    ['Cost 150,000, residual 0, useful life 5 years, sum-of-the-years’-digits', 50_000],
  ])('%s → first year %d', (text, first) => {
    expect(depreciationOf(text)?.schedule[0]?.expense).toBe(first);
  });

  it('ends every schedule at the residual value', () => {
    for (const text of ['취득원가 5,000,000원, 잔존가치 500,000원, 내용연수 4년, 정률법 40%', 'Cost 150,000, residual 10,000, useful life 3 years, double-declining']) {
      const d = depreciationOf(text);
      expect(d?.schedule.at(-1)?.book).toBe(d?.residual);
    }
  });

  it('works out VAT on a net amount and inside a gross one', () => {
    expect(vatOf('What is the VAT on a net sale of 300,000?')).toMatchObject({ vat: 30_000, total: 330_000 });
    expect(vatOf('부가세 포함 110,000원에서 부가가치세는?')).toMatchObject({ supply: 100_000, vat: 10_000 });
  });
});
