import { describe, expect, it } from 'vitest';
import { maskPii, maskPiiDeep } from './pii.ts';

describe('maskPii', () => {
  it('keeps only the first character and the top-level domain of an e-mail address', () => {
    expect(maskPii('Write to john.doe@example.com today')).toBe('Write to j***@***.com today');
    expect(maskPii('메일: kim_minsu+tag@mail.naver.co.kr 로 보내 주세요')).toBe('메일: k***@***.kr 로 보내 주세요');
    expect(maskPii('j@x.io')).toBe('j***@***.io');
  });

  it('masks the middle of Korean mobile numbers however they are written', () => {
    expect(maskPii('010-1234-5678')).toBe('010-****-5678');
    expect(maskPii('제 번호는 01012345678이에요')).toBe('제 번호는 010****5678이에요');
    expect(maskPii('010.9876.5432')).toBe('010.****.5432');
    expect(maskPii('011 234 5678')).toBe('011 *** 5678');
  });

  it('masks Korean landline numbers', () => {
    expect(maskPii('서울 02-123-4567')).toBe('서울 02-***-4567');
    expect(maskPii('(02) 1234-5678')).toBe('(02) ****-5678');
    expect(maskPii('031-123-4567, 070-1234-5678')).toBe('031-***-4567, 070-****-5678');
  });

  it('masks international numbers, keeping the country code and the last four digits', () => {
    expect(maskPii('+82 10-1234-5678')).toBe('+82 **-****-5678');
    expect(maskPii('+821012345678')).toBe('+82******5678');
    expect(maskPii('+44 20 7946 0958')).toBe('+44 ** **** 0958');
    expect(maskPii('Call +1 (415) 555-2671.')).toBe('Call +1 (***) ***-2671.');
    expect(maskPii('(415) 555-2671 or 415-555-2671')).toBe('(415) ***-2671 or 415-***-2671');
  });

  it('keeps only the birth date of a resident registration number', () => {
    expect(maskPii('901231-1234567')).toBe('901231-*******');
    expect(maskPii('주민번호는 850101-2345678입니다')).toBe('주민번호는 850101-*******입니다');
    expect(maskPii('9012311234567')).toBe('901231*******');
  });

  it('leaves numbers that are not personal data alone', () => {
    for (const text of [
      'x = +12.5 - 3.2',
      '3+4=7 and 10-2=8',
      '2024-01-15 10:30',
      '취득원가 1,000,000원, 잔존가치 100,000원',
      'ISBN 978-3-16-148410-0',
      'version 1.2.3-beta',
      'user@localhost',
      'Question number 7?',
      // Not a date: month 13.
      '901331-1234567',
    ]) {
      expect(maskPii(text)).toBe(text);
    }
  });

  it('masks every kind in one text, and masking twice changes nothing more', () => {
    const text = '연락처 010-1234-5678, 메일 hong@example.com, 주민번호 901231-1234567, 해외 +1 415 555 2671';
    const masked = maskPii(text);
    expect(masked).toBe('연락처 010-****-5678, 메일 h***@***.com, 주민번호 901231-*******, 해외 +1 *** *** 2671');
    expect(maskPii(masked)).toBe(masked);
  });
});

describe('maskPiiDeep', () => {
  it('masks every string inside lists and objects and keeps everything else', () => {
    const inputs = { keywords: ['me@duet.dev', 'coffee'], poemTitle: 'Call 010-1111-2222', count: 3, empty: null };
    expect(maskPiiDeep(inputs)).toEqual({
      keywords: ['m***@***.dev', 'coffee'],
      poemTitle: 'Call 010-****-2222',
      count: 3,
      empty: null,
    });
    expect(inputs.poemTitle).toBe('Call 010-1111-2222');
  });
});
