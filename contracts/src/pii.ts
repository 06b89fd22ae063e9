/**
 * Masks personal data in text that Duet shows in public: the history pages and the open-data
 * export. One function for both, so what one hides the other hides too.
 *
 * What it finds, and what is left of it:
 * - e-mail addresses: the first character and the top-level domain (`j***@***.com`);
 * - Korean resident registration numbers: the birth date (`901231-*******`);
 * - phone numbers: the first group and the last four digits, separators kept:
 *   Korean mobiles (`010-****-5678`), Korean landlines (`02-***-4567`), international numbers
 *   written with `+` (`+82 **-****-5678`) and North American ones (`415-***-2671`);
 * - payment card numbers, 13 to 19 digits with or without spaces or hyphens, from a card brand's
 *   range and passing the Luhn check (so order numbers and other long numbers are left alone):
 *   the last four digits (`**** **** **** 1111`);
 * - Korean bank account numbers in the banks' printed formats (groups joined by hyphens, e.g.
 *   `110-123-456789`, `123456-12-123456`), or any 10 to 14 digits right after a word that says
 *   account or names a bank (`계좌 1234567890123`): the last four digits;
 * - Korean passport numbers (`M12345678`, `M123A4567`): the first letter;
 * - Korean driver's licence numbers (`11-24-123456-78`, `서울 24-123456-78`): the region.
 *
 * Card, account, passport and licence numbers keep less than phone numbers: they open an account
 * or a payment, where a phone number only rings.
 *
 * Each pattern starts only where a token starts (a look-behind), so a long run of letters or
 * digits costs linear time, never quadratic.
 */

const EMAIL = /(?<![\w.%+-])([A-Za-z0-9])[\w.%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.([A-Za-z]{2,24})(?![\w-])/g;

/** YYMMDD, an optional hyphen, then the sex/century digit (1–8) and six more. */
const RESIDENT_NUMBER = /(?<!\d)(\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))( ?- ?|)[1-8]\d{6}(?!\d)/g;

/** `+`, a country code, then two to five groups of digits (separators and parentheses optional). */
const INTERNATIONAL = /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\d)/g;

/** 010, 011, 016, 017, 018, 019; the same separator (or none) between the groups. */
const KOREAN_MOBILE = /(?<![\w+])(01[016789])([-. ]?)(\d{3,4})\2(\d{4})(?!\d)/g;

/** Seoul (02), the other regions (031–064), 070 and 050x; a separator before the last group. */
const KOREAN_LANDLINE = /(?<![\w+])(\(?(?:02|0[3-6][1-5]|070|050\d)\)?)([-. ]?)(\d{3,4})([-. ])(\d{4})(?!\d)/g;

/** (415) 555-2671, 415-555-2671, 415.555.2671. */
const NORTH_AMERICAN = /(?<![\w+])(\([2-9]\d{2}\) ?|[2-9]\d{2}[-.])(\d{3})([-.])(\d{4})(?!\d)/g;

/**
 * 13 to 19 digits, single spaces or hyphens allowed between them, starting with a card brand's
 * leading digits: Visa 4, Mastercard 51–55 and 22–27, American Express, Diners and JCB 3, Discover
 * and UnionPay 6, Korean domestic cards 9.
 */
const CARD = /(?<![\w+.,-])(?:4|5[1-5]|2[2-7]|3|6|9)\d?(?:[ -]?\d){11,17}(?!\w|[.,-]\d)/g;

/**
 * Korean banks' printed account formats (digits per hyphen-joined group): KB and the post office
 * 6-2-6 (older KB 3-2-4-3), Shinhan and K bank 3-3-6 (older 3-2-6, SC 3-2-6), Woori 4-3-6, Hana
 * 3-6-5, NH 3-4-4-2, IBK 3-6-2-3, Kakao Bank 4-2-7.
 */
const BANK_ACCOUNT =
  /(?<![\w-])(?:\d{6}-\d{2}-\d{6}|\d{3}-\d{2}-\d{4}-\d{3}|\d{3}-\d{3}-\d{6}|\d{3}-\d{2}-\d{6}|\d{4}-\d{3}-\d{6}|\d{3}-\d{6}-\d{5}|\d{3}-\d{4}-\d{4}-\d{2}|\d{3}-\d{6}-\d{2}-\d{3}|\d{4}-\d{2}-\d{7})(?![\w-])/g;

/**
 * A word that says "account" or names a bank (`국민은행` has `은행`), then within a few characters
 * 10 to 14 digits, hyphens allowed. Bank names that are also everyday words (우리, 하나, 국민) count
 * only with `은행`.
 */
const ACCOUNT_AFTER_WORD =
  /((?:계좌|통장|입금|송금|은행|농협|카카오뱅크|케이뱅크|토스뱅크|우체국|새마을금고|수협|신협|\b(?:NH|IBK|KB|account|acct|bank)\b)[^\d\n]{0,12})(\d(?:-?\d){9,13})(?![\w-])/gi;

/** Korean passports: M (or S, R, G, D), then eight digits, or three digits, a letter and four digits. */
const PASSPORT = /(?<![A-Za-z0-9])([MSRGD])(\d{8}|\d{3}[A-Z]\d{4})(?![A-Za-z0-9])/g;

/** Korean driver's licences: region code (11–28) or region name, year, six digits, two check digits. */
const DRIVERS_LICENCE =
  /(?<![\w-])((?:1[1-9]|2[0-8])-|(?:서울|부산|경기|강원|충북|충남|전북|전남|경북|경남|제주|대구|인천|광주|대전|울산) ?)(\d{2}-\d{6}-\d{2})(?![\w-])/g;

const stars = (digits: string): string => '*'.repeat(digits.length);

/** Every digit but the last four as `*`, separators kept. */
function keepLastFour(number: string): string {
  let left = number.replace(/\D/g, '').length - 4;
  return number.replace(/\d/g, (d) => (left-- > 0 ? '*' : d));
}

/** The Luhn check every payment card number passes. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function maskCard(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || !luhn(digits)) return number;
  // One kind of separator, or none: "4111 1111-1111 1111" is not how a card is written.
  if (/ /.test(number) && /-/.test(number)) return number;
  return keepLastFour(number);
}

/** Replaces every digit but those of the first group and the last four with `*`. */
function maskInternational(number: string): string {
  const digits = number.replace(/\D/g, '');
  // Fewer than eight digits is a signed number, not a phone number.
  if (digits.length < 8) return number;
  const firstGroup = /^\+(\d+)/.exec(number)?.[1] ?? '';
  // Without separators the country code's length is unknown: keep two digits.
  const keepFirst = firstGroup.length === digits.length ? 2 : firstGroup.length;
  const keepFrom = digits.length - 4;
  let seen = 0;
  return number.replace(/\d/g, (d) => {
    const i = seen++;
    return i < keepFirst || i >= keepFrom ? d : '*';
  });
}

/** The text with e-mail addresses, phone, card, bank account, passport, licence and resident registration numbers masked. */
export function maskPii(text: string): string {
  // Each pattern runs only on text with the character it cannot do without: an address needs an
  // @, the numbers a digit, the international ones a +. The e-mail pattern is the costly one (it
  // tries every word), and answers with digits but no @ are common: a history page would spend a
  // good part of its rendering in it for nothing. The result is the same.
  let out = text;
  if (out.includes('@')) out = out.replace(EMAIL, (_m, first: string, tld: string) => `${first}***@***.${tld}`);
  if (!/\d/.test(out)) return out;
  out = out.replace(RESIDENT_NUMBER, (_m, birth: string, sep: string) => `${birth}${sep}*******`);
  // Longest first: a card or an account holds runs a phone pattern would take a piece of.
  out = out
    .replace(CARD, maskCard)
    .replace(DRIVERS_LICENCE, (_m, region: string, rest: string) => `${region}${rest.replace(/\d/g, '*')}`)
    .replace(BANK_ACCOUNT, keepLastFour)
    .replace(ACCOUNT_AFTER_WORD, (_m, word: string, number: string) => `${word}${keepLastFour(number)}`)
    .replace(PASSPORT, (_m, kind: string, rest: string) => `${kind}${'*'.repeat(rest.length)}`);
  if (out.includes('+')) out = out.replace(INTERNATIONAL, maskInternational);
  return out
    .replace(KOREAN_MOBILE, (_m, first: string, sep: string, middle: string, last: string) => `${first}${sep}${stars(middle)}${sep}${last}`)
    .replace(
      KOREAN_LANDLINE,
      (_m, area: string, sep1: string, middle: string, sep2: string, last: string) => `${area}${sep1}${stars(middle)}${sep2}${last}`,
    )
    .replace(NORTH_AMERICAN, (_m, area: string, middle: string, sep: string, last: string) => `${area}${stars(middle)}${sep}${last}`);
}

/** The same value with `maskPii` applied to every string in it (the question's inputs: strings and lists). */
export function maskPiiDeep<T>(value: T): T {
  return maskValue(value) as T;
}

function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskPii(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v)]));
  }
  return value;
}
