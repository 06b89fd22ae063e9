import { describe, expect, it } from 'vitest';
import { dueum, formal, jo } from './korean.ts';

describe('Korean particles', () => {
  it.each([
    ['2', '이', '2가'],
    ['결과', '은', '결과는'],
    ['2', '이에요', '2예요'],
    ['10', '이', '10이'],
    ['19', '이에요', '19예요'],
    ['1,000,000', '을', '1,000,000을'],
    ['200,000원', '이에요', '200,000원이에요'],
    ['1,700', '은', '1,700은'],
    ['3', '과', '3과'],
    ['4', '과', '4와'],
    ['2.5', '이', '2.5가'],
    ['0', '이', '0이'],
    ['사과', '을', '사과를'],
    ['책', '을', '책을'],
    ['서울', '으로', '서울로'],
    ['부산', '으로', '부산으로'],
    ['Excel', '으로', 'Excel로'],
    ['“등대”', '이', '“등대”가'],
    ['$x = 0$', '이에요', '$x = 0$이에요'],
  ] as const)('%s + %s → %s', (word, particle, expected) => {
    expect(jo(word, particle)).toBe(expected);
  });
});

describe('formal endings for the structured persona', () => {
  it.each([
    ['붉게 보여요.', '붉게 보입니다.'],
    ['두 배가 넘어요.', '두 배가 넘습니다.'],
    ['해를 따라 돌아요.', '해를 따라 돕니다.'],
    ['결과는 2예요.', '결과는 2입니다.'],
    ['서울이에요.', '서울입니다.'],
    ['함께 해 볼까요?', '함께 해 볼까요?'],
  ])('%s → %s', (from, to) => {
    expect(formal(from)).toBe(to);
  });
});

describe('두음법칙', () => {
  it.each([
    ['래', '내'],
    ['력', '역'],
    ['린', '인'],
    ['녀', '여'],
    ['로', '노'],
  ])('%s → %s', (from, to) => {
    expect(dueum(from)).toBe(to);
  });

  it('leaves other syllables alone', () => {
    expect(dueum('과')).toBeUndefined();
  });
});
