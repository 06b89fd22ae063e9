/**
 * Korean grammar for inserted words: particles (조사) chosen by the sound a word ends in,
 * including numbers read aloud (2 → 이, 10 → 십, 1,000 → 천) and Latin words read as loanwords.
 */

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_COUNT = 11172;
/** Final-consonant (종성) indexes. */
const NONE = 0;
const RIEUL = 8;
const GIYEOK = 1;
const NIEUN = 4;
const MIEUM = 16;
const BIEUP = 17;
const SIOT = 19;
const IEUNG = 21;

/** The 종성 of a Hangul syllable (0 = none, 8 = ㄹ), or undefined for any other character. */
export function jongseong(ch: string): number | undefined {
  const code = ch.charCodeAt(0) - SYLLABLE_FIRST;
  return code >= 0 && code < SYLLABLE_COUNT ? code % 28 : undefined;
}

export const isHangul = (ch: string): boolean => jongseong(ch) !== undefined;

/** 영 일 이 삼 사 오 육 칠 팔 구: how each digit read in Sino-Korean ends. */
const DIGIT_FINAL = [IEUNG, RIEUL, NONE, MIEUM, NONE, NONE, GIYEOK, RIEUL, RIEUL, NONE];

/** How a number read aloud ends: its last non-zero digit, or the unit that follows it (십 백 천 만 억 조). */
export function numberFinal(digits: string): number {
  const [whole = '', decimals] = digits.replace(/,/g, '').split('.');
  if (decimals) return DIGIT_FINAL[Number(decimals.at(-1))] ?? NONE;
  const trimmed = whole.replace(/^0+(?=\d)/, '');
  const zeros = trimmed.length - trimmed.replace(/0+$/, '').length;
  if (trimmed === '0' || zeros === trimmed.length) return IEUNG;
  if (zeros === 0) return DIGIT_FINAL[Number(trimmed.at(-1))] ?? NONE;
  if (zeros === 1) return BIEUP; // 십
  if (zeros === 2) return GIYEOK; // 백
  if (zeros === 3) return NIEUN; // 천
  if (zeros < 8) return NIEUN; // 만
  if (zeros < 12) return GIYEOK; // 억
  return NONE; // 조
}

/** Letter names as Koreans read them (에이, 비, 씨 … 엘, 엠, 엔, 알): only L, M, N and R end in a consonant. */
const LETTER_FINAL: Record<string, number> = { l: RIEUL, m: MIEUM, n: NIEUN, r: RIEUL };

/** Units after a number, read in Korean: 퍼센트, 도, 미터, 그램, 리터… */
const UNIT_FINAL: [RegExp, number][] = [
  [/%$/, NONE],
  [/°[CF]?$/, NONE],
  [/(?:k|c|m)?m$/, NONE],
  [/k?g$/, MIEUM],
  [/m?[lL]$/, NONE],
];

/** How an English word sounds at its end when read as a Korean loanword (컵, 캣, 북, 엑셀, 워드). */
function latinFinal(word: string): number {
  if (/^[A-Z]{2,}$/.test(word) && !/[AEIOU]/.test(word)) return LETTER_FINAL[word.at(-1)?.toLowerCase() ?? ''] ?? NONE;
  if (/^[A-Z]$/.test(word)) return LETTER_FINAL[word.toLowerCase()] ?? NONE;
  const w = word.toLowerCase();
  // Silent-e endings read with a consonant: 폰, 와인, 게임, 타임, 파일, 세일.
  if (/[aio]ne$/.test(w)) return NIEUN;
  if (/[aio]me$/.test(w)) return MIEUM;
  if (/[aio]le$/.test(w)) return RIEUL;
  if (/[aeiouyw]$/.test(w)) return NONE;
  if (/ng$/.test(w)) return IEUNG;
  if (/m$/.test(w)) return MIEUM;
  if (/n$/.test(w)) return NIEUN;
  if (/l$/.test(w)) return RIEUL;
  if (/(?:[aeiou]c?k|ic|ac)$/.test(w)) return GIYEOK;
  if (/(?:^|[^aeiou])[aeiou](?:pp?|bb?)$/.test(w) || /(?:ee|ea|oo)p$/.test(w)) return BIEUP;
  if (/(?:^|[^aeiou])[aeiou]t$/.test(w)) return SIOT;
  return NONE;
}

const CLOSERS = /[\s"'“”‘’«»「」『』()[\]{}*_`~.,!?:;…》〉$]+$/u;

/** The final sound of a word as read aloud: 0 when it ends in a vowel, 8 for ㄹ, another index for any other consonant. */
export function finalSound(word: string): number {
  const w = word.replace(CLOSERS, '');
  const last = w.at(-1) ?? '';
  const syllable = jongseong(last);
  if (syllable !== undefined) return syllable;
  const number = /(\d[\d,]*(?:\.\d+)?)\s*([%°a-zA-Z]*)$/.exec(w);
  if (number) {
    const unit = number[2] ?? '';
    if (!unit) return numberFinal(number[1] ?? '0');
    const known = UNIT_FINAL.find(([re]) => re.test(unit));
    if (known) return known[1];
  }
  const latin = /[A-Za-z]+$/.exec(w);
  if (latin) return latinFinal(latin[0]);
  return NONE;
}

/** Each particle by its form after a consonant, with its form after a vowel. */
const FORMS = {
  은: ['은', '는'],
  이: ['이', '가'],
  을: ['을', '를'],
  과: ['과', '와'],
  으로: ['으로', '로'],
  이에요: ['이에요', '예요'],
  이었: ['이었', '였'],
  이라: ['이라', '라'],
  이나: ['이나', '나'],
  이고: ['이고', '고'],
  이면: ['이면', '면'],
  이랑: ['이랑', '랑'],
  아: ['아', '야'],
} as const;
export type Particle = keyof typeof FORMS;

/** The form of particle `p` that `word` needs: 사과를, 책을, 2가, 10이, 서울로, 부산으로, Excel로. */
export function josa(word: string, p: Particle): string {
  const fin = finalSound(word);
  const [afterConsonant, afterVowel] = FORMS[p];
  if (p === '으로') return fin === NONE || fin === RIEUL ? afterVowel : afterConsonant;
  return fin === NONE ? afterVowel : afterConsonant;
}

/** `word` followed by the right form of particle `p`. */
export const jo = (word: string, p: Particle): string => word + josa(word, p);

/** 두음법칙 at the start of a word: 력 → 역, 녀 → 여, 래 → 내, 로 → 노. Undefined when it does not apply. */
export function dueum(syllable: string): string | undefined {
  const code = syllable.charCodeAt(0) - SYLLABLE_FIRST;
  if (code < 0 || code >= SYLLABLE_COUNT) return undefined;
  const initial = Math.floor(code / 588);
  const medial = Math.floor((code % 588) / 28);
  const final = code % 28;
  // ㅑ ㅕ ㅖ ㅛ ㅠ ㅣ (and ㅒ): the vowels that drop ㄹ/ㄴ to ㅇ.
  const yVowel = [2, 3, 6, 7, 12, 17, 20].includes(medial);
  const RIEUL_INITIAL = 5;
  const NIEUN_INITIAL = 2;
  const IEUNG_INITIAL = 11;
  let next = initial;
  if (initial === RIEUL_INITIAL) next = yVowel ? IEUNG_INITIAL : NIEUN_INITIAL;
  else if (initial === NIEUN_INITIAL && yVowel) next = IEUNG_INITIAL;
  return next === initial ? undefined : String.fromCharCode(SYLLABLE_FIRST + next * 588 + medial * 28 + final);
}

const syllable = (initial: number, medial: number, final: number): string =>
  String.fromCharCode(SYLLABLE_FIRST + initial * 588 + medial * 28 + final);

/** Vowel changes when 해요체 contracts back to 합니다체: 여 → 이 (보여요 → 보입니다), 와 → 오, 워 → 우, 왜 → 외. */
const UNCONTRACT: Record<number, number> = { 6: 20, 9: 8, 14: 13, 10: 11 };

/** One 해요체 statement ending in 합니다체: 있어요 → 있습니다, 돌아요 → 돕니다, 보여요 → 보입니다, 2예요 → 2입니다. */
function formalOf(prev: string, last: string): string | undefined {
  if (last === '에' && prev === '이') return '입니다';
  if (last === '예') return `${prev}입니다`;
  const code = last.charCodeAt(0) - SYLLABLE_FIRST;
  if (code < 0 || code >= SYLLABLE_COUNT || code % 28 !== 0) return undefined;
  const initial = Math.floor(code / 588);
  const medial = Math.floor((code % 588) / 28);
  const prevFinal = jongseong(prev);
  // 아요/어요 after a consonant: 넘어요 → 넘습니다; after ㄹ the ㄹ drops: 돌아요 → 돕니다.
  if ((last === '아' || last === '어') && prevFinal) {
    const p = prev.charCodeAt(0) - SYLLABLE_FIRST;
    return prevFinal === RIEUL ? `${String.fromCharCode(SYLLABLE_FIRST + p - RIEUL + BIEUP)}니다` : `${prev}습니다`;
  }
  if (last === '해') return `${prev}합니다`;
  return `${prev}${syllable(initial, UNCONTRACT[medial] ?? medial, BIEUP)}니다`;
}

/** 해요체 statements (ending in 요 before a full stop) in 합니다체, for the structured persona. Questions stay as they are. */
export const formal = (s: string): string =>
  s.replace(/([가-힣]?)([가-힣])요(?=[.)]|\s\(|$)/gm, (all, prev: string, last: string) =>
    /^(?:까|죠|세|네|군|지|래|나)$/.test(last) ? all : (formalOf(prev, last) ?? all),
  );
