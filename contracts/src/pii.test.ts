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

/**
 * Real-looking cases and near misses, in both languages: each line is what the public sees of a
 * question or an answer. A near miss is a number that looks like personal data but is not: a date,
 * an amount, an order number, a number in a maths answer.
 */
const CORPUS: Array<[text: string, masked: string]> = [
  // Payment cards: 13 to 19 digits, Luhn-checked, spaces or hyphens or neither.
  ['카드번호 4111 1111 1111 1111 로 결제했어요', '카드번호 **** **** **** 1111 로 결제했어요'],
  ['Card: 4111-1111-1111-1111, exp 12/27', 'Card: ****-****-****-1111, exp 12/27'],
  ['5555555555554444', '************4444'],
  ['Amex 3782 822463 10005 please', 'Amex **** ****** *0005 please'],
  ['국내 카드 9410 1234 5678 9010', '국내 카드 **** **** **** 9010'],
  ['JCB 3530111333300000 입니다.', 'JCB ************0000 입니다.'],
  ['UnionPay 6212345678901265 (19 digits: 6212345678901265001)', 'UnionPay ************1265 (19 digits: ***************5001)'],
  // Near misses for cards: Luhn fails, no card range, mixed separators, amounts, dates.
  ['4111 1111 1111 1112 is a typo', '4111 1111 1111 1112 is a typo'],
  ['주문번호 2024112800012345', '주문번호 2024112800012345'],
  ['Order #1000200030004000 shipped', 'Order #1000200030004000 shipped'],
  ['4111 1111-1111 1111', '4111 1111-1111 1111'],
  ['총액은 1,234,567,890,123원입니다', '총액은 1,234,567,890,123원입니다'],
  ['$4,111,111,111,111.11 in revenue', '$4,111,111,111,111.11 in revenue'],
  ['타임스탬프 1732780800000', '타임스탬프 1732780800000'],
  // Korean bank accounts: the banks' printed formats, or digits after a word for account or bank.
  ['신한은행 110-123-456789로 보내 주세요', '신한은행 ***-***-**6789로 보내 주세요'],
  ['KB 123456-12-123456', 'KB ******-**-**3456'],
  ['우리은행 1002-123-456789', '우리은행 ****-***-**6789'],
  ['하나 123-456789-12345', '하나 ***-******-*2345'],
  ['농협 301-1234-5678-91', '농협 ***-****-**78-91'],
  ['IBK 123-456789-01-234', 'IBK ***-******-*1-234'],
  ['카카오뱅크 3333-01-1234567', '카카오뱅크 ****-**-***4567'],
  ['입금 계좌: 1000-1234-5678 (토스뱅크)', '입금 계좌: ****-****-5678 (토스뱅크)'],
  ['Please wire to account no. 1234567890', 'Please wire to account no. ******7890'],
  ['계좌번호 9876543210987', '계좌번호 *********0987'],
  // Near misses for accounts: business numbers, ISBNs, dates and bare long numbers with no account word.
  ['사업자등록번호 123-45-67890', '사업자등록번호 123-45-67890'],
  ['ISBN 978-89-1234-567-8', 'ISBN 978-89-1234-567-8'],
  ['2024-11-28 10:30', '2024-11-28 10:30'],
  ['우리 반은 1234567890 을 3으로 나눈 나머지를 구했다', '우리 반은 1234567890 을 3으로 나눈 나머지를 구했다'],
  ['The bank rate is 3.5% since 2024', 'The bank rate is 3.5% since 2024'],
  // Passports.
  ['여권번호는 M12345678 입니다', '여권번호는 M******** 입니다'],
  ['New passport: M123A4567.', 'New passport: M********.'],
  // Near misses for passports: codes too short or too long, lower case, part of a word.
  ['Model M1234 and M123456789', 'Model M1234 and M123456789'],
  ['size m12345678', 'size m12345678'],
  ['AM12345678', 'AM12345678'],
  // Driver's licences.
  ['운전면허 11-24-123456-78', '운전면허 11-**-******-**'],
  ['면허번호 서울 24-123456-78', '면허번호 서울 **-******-**'],
  ["Driver's licence 28-19-654321-01", "Driver's licence 28-**-******-**"],
  // Near misses for licences: region 30 and above, other groupings.
  ['코드 31-24-123456-78', '코드 31-24-123456-78'],
  ['12-34-56', '12-34-56'],
  // Maths answers with phone-like or long numbers stay as they are.
  ['x = 1234567890123 / 3 = 411522630041', 'x = 1234567890123 / 3 = 411522630041'],
  ['3 × 1415 × 9265 = 39,331,425', '3 × 1415 × 9265 = 39,331,425'],
  ['정답: 010 + 1234 + 5678 = 6922', '정답: 010 + 1234 + 5678 = 6922'],
  ['1 234 567', '1 234 567'],
  ['π ≈ 3.14159265358979323846', 'π ≈ 3.14159265358979323846'],
  ['Step 2: 12 - 34 - 5678 = -5700', 'Step 2: 12 - 34 - 5678 = -5700'],
  // Everything at once, as a careless visitor writes it.
  [
    '제 이메일은 kim@example.com, 전화 010-1234-5678, 카드 4111 1111 1111 1111, 계좌 국민은행 123456-12-123456, 여권 M12345678',
    '제 이메일은 k***@***.com, 전화 010-****-5678, 카드 **** **** **** 1111, 계좌 국민은행 ******-**-**3456, 여권 M********',
  ],
];

describe('maskPii on the corpus', () => {
  it.each(CORPUS)('%s', (text, masked) => {
    expect(maskPii(text)).toBe(masked);
    // Masking what is masked changes nothing.
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
