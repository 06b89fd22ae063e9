import { describe, expect, it } from 'vitest';
import type { BattleInputs, Language } from '@duet/contracts';
import { TOOLS } from '@duet/contracts';
import { demoAnswer } from './index.ts';

/**
 * A table per tool and language: questions a visitor would ask, with what both demo models must
 * get right. Every row is also checked for the properties every answer needs: both sides answer,
 * the two differ in substance, the request is not pasted back, and Korean particles fit the sound
 * they follow.
 */
interface Row {
  text?: string;
  inputs?: BattleInputs;
  hasImage?: boolean;
  /** Both answers hold each of these. */
  both?: (string | RegExp)[];
  /** Neither answer holds any of these. */
  neither?: (string | RegExp)[];
  /** Picks the items each side offers (titles, formulas, words…); the two sets must not overlap. */
  items?: RegExp;
}

type Table = Record<Language, Row[]>;

const TABLE: Record<string, Table> = {
  'title-academy': {
    en: [{ hasImage: true, both: [/can’t (see|actually see)/], items: /“([^”]+)”|\*([^*]+)\*:/g }, { text: 'my dog at the beach', hasImage: true, both: [/mention(s|ed) a dog/], items: /“([^”]+)”|\*([^*]+)\*:/g }],
    ko: [
      { hasImage: true, both: [/볼 수 없|보지는 못/], items: /“([^”]+)”|\*([^*]+)\*:/g },
      { text: '스케이트보드 타는 고양이', hasImage: true, both: ['고양이'], items: /“([^”]+)”|\*([^*]+)\*:/g },
    ],
  },
  makeLyrics: {
    en: [
      { inputs: { poemTitle: 'Harbor Lights', keywords: ['lighthouse', 'salt', 'letters'], genre: 'ballad' }, both: ['Harbor Lights', 'lighthouse', 'salt', 'letters'], items: /^([^#|*\n].+?)\s{2}$/gm },
      { inputs: { poemTitle: 'Snack Time', keywords: ['crunchy'] }, both: ['crunchy'], neither: [/the crunchy\b/] },
    ],
    ko: [{ inputs: { poemTitle: '바다의 편지', keywords: ['등대', '소금', '편지'] }, both: ['바다의 편지', '등대', '소금', '편지'], items: /^([^#|*\n].+?)\s{2}$/gm }],
  },
  'rap-lyrics': {
    en: [{ inputs: { poemTitle: 'Concrete Dreams', keywords: ['subway', 'hustle'] }, both: ['Concrete Dreams', 'subway', 'hustle', '[Hook]'], items: /^([^#|*\n(].+?)\s{2}$/gm }],
    ko: [{ inputs: { poemTitle: '콘크리트 꿈', keywords: ['지하철', '열정'] }, both: ['콘크리트 꿈', '지하철', '열정'], items: /^([^#|*\n(].+?)\s{2}$/gm }],
  },
  'quiz-solving': {
    en: [
      { text: 'Capital of Australia? Also 12 + 7', both: ['Canberra', '19'] },
      { text: 'Which planet is known as the Red Planet?', both: ['Mars'] },
      { text: 'What is (3 + 4) * 2 and what is 10 / 4?', both: ['14', '2.5'] },
      { text: 'Who won the 1987 regional chess cup in Leeds?', both: [/look (it|this) up|lookup/] },
      { text: 'How many planets are in the solar system? And who painted The Starry Night?', both: ['8', 'Vincent van Gogh'] },
    ],
    ko: [
      { text: '호주의 수도는? 그리고 12 + 7은?', both: ['캔버라', '19'] },
      { text: '붉은 행성이라고 불리는 행성은?', both: ['화성'] },
      { text: '3 곱하기 4는?', both: ['12'] },
      { text: '가장 큰 나라는? 또 144의 제곱근은?', both: ['러시아', '12'] },
    ],
  },
  'game-ending-word': {
    en: [{ text: 'apple' }, { text: 'banana' }, { text: 'Quiz!' }],
    ko: [{ text: '사과' }, { text: '기차' }, { text: '노래' }, { text: '기린' }],
  },
  'netflix-recommend': {
    en: [{ inputs: { category: 'film', genre: 'thriller' }, both: [/country/], items: /\*\*([^*]+)\*\* \(|\| \*\*([^*]+)\*\* \|/g }],
    ko: [{ inputs: { category: 'drama', genre: '로맨스' }, both: ['로맨스'], items: /\*\*([^*]+)\*\*\(|\| \*\*([^*]+)\*\* \|/g }],
  },
  'instagram-reels-idea': {
    en: [
      { inputs: { keywords: ['coffee', 'morning'] }, both: ['coffee'], items: /^(?:###|\*\*)\s?\d\. (.+?)(?:\*\*)?$/gm },
      { inputs: { keywords: ['cafe'] }, both: ['cafe'], neither: [/tried cafe|day of cafe|try at cafe|making cafe/i] },
    ],
    ko: [{ inputs: { keywords: ['커피', '아침'] }, both: ['커피'], items: /^(?:###|\*\*)\s?\d\. (.+?)(?:\*\*)?$/gm }],
  },
  'math-solve': {
    en: [
      { hasImage: true, both: [/image/, /\$\$/], items: /\$\$?([^$]*= 0)\$\$?/g },
      { text: 'x^2 - 5x + 6 = 0', hasImage: true, both: ['$x = 2$', '$x = 3$'] },
      { text: '2x + 3 = 11', hasImage: true, both: ['$x = 4$'] },
    ],
    ko: [
      { hasImage: true, both: [/이미지/], items: /\$\$?([^$]*= 0)\$\$?/g },
      { text: 'x² - 7x + 12 = 0 풀어 주세요', hasImage: true, both: ['$x = 3$', '$x = 4$'] },
    ],
  },
  'influencer-writing': {
    en: [
      { text: 'Promote a new vegan bakery in Mapo', inputs: { keywords: ['crunchy', 'croissants', 'cafe'] }, both: ['#ad', 'crunchy', 'croissants', 'cafe'], neither: [/Promote a new/i, 'croissants is', 'If cafe'] },
      { text: 'Write a post promoting our new protein bar', inputs: { keywords: ['vegan'] }, both: ['our new protein bar'], neither: [/write a post/i] },
    ],
    ko: [{ text: '망원동 비건 베이커리 홍보 글 써 줘', inputs: { keywords: ['바삭함', '크루아상'] }, both: ['#광고', '망원동 비건 베이커리', '바삭함', '크루아상'], neither: ['글 써 줘'] }],
  },
  docent: {
    en: [{ hasImage: true, both: [/can’t (identify|tell)/] }],
    ko: [{ hasImage: true, both: [/알아볼 수 없|알아보지 못/] }],
  },
  'accounting-solving': {
    en: [
      { text: 'A machine costs 1,000,000 with residual value 100,000 and a useful life of 5 years. Find annual depreciation.', both: ['180,000'] },
      { text: 'Equipment bought for $50,000, useful life 4 years, no salvage value, straight-line. Annual depreciation?', both: ['12,500'] },
      { text: 'What is the VAT on a net sale of 300,000?', both: ['30,000'] },
    ],
    ko: [
      { text: '1,000,000원, 내용연수 5년, 잔존가치 0, 정액법', both: ['200,000원'], neither: [/감가상각비 \*{0,2}1,000,000원/] },
      { text: '취득원가 5,000,000원, 잔존가치 500,000원, 내용연수 4년, 정률법 40%일 때 1차 연도 감가상각비는?', both: ['2,000,000원'] },
      { text: '부가세 포함 110,000원에서 부가가치세는 얼마인가요?', both: ['10,000원'] },
    ],
  },
  'excel-solving': {
    en: [
      { text: 'How do I sum sales by product?', both: ['```excel', '1,700'], items: /```excel\n(.+)\n```/g },
      { text: 'How do I look up a price by product code?', both: ['8,500'], items: /```excel\n(.+)\n```/g },
      { text: 'How many students scored 80 or more?', both: ['```excel'], items: /```excel\n(.+)\n```/g },
    ],
    ko: [
      { text: '중복된 이름을 표시하고 싶어요', both: ['```excel'], items: /```excel\n(.+)\n```/g },
      { text: '품목별 평균 금액을 구하고 싶어요', both: ['850'], items: /```excel\n(.+)\n```/g },
    ],
  },
  'anything-question': {
    en: [
      { text: 'Why is the sky blue?', both: ['Rayleigh scattering'] },
      { text: 'Why do we yawn?', both: [/(not|no one|nobody) (know|settled|sure)|still argue/i] },
      { text: 'What is 15% of 240?', both: ['36'] },
      { text: 'How do I get better at chess openings?', both: [/can’t|can't/] },
    ],
    ko: [
      { text: '하늘은 왜 파란가요?', both: ['레일리 산란'] },
      { text: '바닷물은 왜 짠가요?', both: ['증발'] },
      { text: '주식 투자는 어떻게 시작하나요?', both: [/확인할 수 없|찾아볼 수 없/] },
    ],
  },
};

const MODELS = ['atlas', 'sonnet'] as const;
const FACTUAL = new Set(['quiz-solving', 'anything-question']);
const answer = (model: string, tool: string, lang: Language, row: Row): string =>
  demoAnswer(model, { tool, lang, inputs: row.inputs ?? {}, text: row.text ?? '', hasImage: row.hasImage ?? false });

/** The answer without the demo notice, which both sides carry. */
const body = (s: string): string => s.replace(/^> \*[^\n]*\n|\n\*\([^\n]*\)\*$/g, '').trim();

/** Words of an answer, for comparing the two sides: lower case, letters only, short words dropped. */
const words = (s: string): Set<string> =>
  new Set(
    body(s)
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => Array.from(w).length >= (/[가-힣]/.test(w) ? 2 : 4)),
  );
/** Jaccard similarity of two word sets: shared words over all words. */
const overlap = (a: Set<string>, b: Set<string>): number => {
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / (a.size + b.size - shared);
};

const itemsOf = (s: string, re: RegExp): Set<string> => new Set([...body(s).matchAll(re)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean));

/** The particle a number takes, read in Sino-Korean: true when its reading ends in a consonant (일, 삼, 육, 칠, 팔, 십, 백, 천, 만, 영). */
function numberHasFinal(n: string): boolean {
  const digits = n.replace(/,/g, '');
  const [whole = '', dec] = digits.split('.');
  const last = dec ? dec.at(-1) : whole.replace(/0+$/, '').at(-1);
  if (!dec && /0$/.test(whole)) return true; // 십 백 천 만 (and 영)
  return ['0', '1', '3', '6', '7', '8'].includes(last ?? '');
}

const PAIRS: [consonant: string, vowel: string][] = [['이', '가'], ['을', '를'], ['은', '는'], ['과', '와'], ['이에요', '예요']];

/** Every “number + particle” in a Korean answer whose particle does not fit the number's sound. */
function badNumberParticles(s: string): string[] {
  const bad: string[] = [];
  for (const m of body(s).matchAll(/(\d[\d,]*(?:\.\d+)?)(이에요|예요|이|가|을|를|은|는|과|와)(?![가-힣])/g)) {
    const [all, n = '', p = ''] = m;
    const pair = PAIRS.find((x) => x.includes(p));
    if (pair && (numberHasFinal(n) ? pair[0] : pair[1]) !== p) bad.push(all);
  }
  return bad;
}

/** Every “keyword + particle” whose particle does not fit the keyword's last syllable. */
function badWordParticles(s: string, kws: string[]): string[] {
  const bad: string[] = [];
  for (const k of kws) {
    const last = k.charCodeAt(k.length - 1) - 0xac00;
    if (last < 0 || last >= 11172) continue;
    const final = last % 28;
    for (const m of body(s).matchAll(new RegExp(`${k}(이에요|예요|이|가|을|를|은|는|과|와|으로|로)(?![가-힣])`, 'g'))) {
      const p = m[1] ?? '';
      if (p === '으로' || p === '로') {
        if ((final === 0 || final === 8) !== (p === '로')) bad.push(m[0]);
        continue;
      }
      const pair = PAIRS.find((x) => x.includes(p));
      if (pair && (final ? pair[0] : pair[1]) !== p) bad.push(m[0]);
    }
  }
  return bad;
}

/** 두음법칙 forms of the syllables these tests chain on. */
const DUEUM: Record<string, string> = { 래: '내', 린: '인' };

describe.each(Object.entries(TABLE))('the demo models on %s', (tool, table) => {
  describe.each(['en', 'ko'] as const)('in %s', (lang) => {
    it.each(table[lang].map((row, i) => [i + 1, row] as const))('question %i: both answer, differently, correctly, without echoing the request', (_, row) => {
      const [a, s] = MODELS.map((m) => answer(m, tool, lang, row)) as [string, string];
      for (const [model, text] of [['atlas', a], ['sonnet', s]] as const) {
        const where = `${tool} ${lang} ${model}`;
        expect(body(text).length, where).toBeGreaterThan(20);
        if (lang === 'en') expect(body(text), where).not.toMatch(/[가-힣]/);
        for (const want of row.both ?? []) expect(text, where).toMatch(typeof want === 'string' ? new RegExp(want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : want);
        for (const not of row.neither ?? []) expect(text, where).not.toMatch(typeof not === 'string' ? new RegExp(not.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : not);
        // A request of several words is never pasted back (the word-chain game repeats the one word played).
        if (row.text && (row.text.match(/\p{L}{2,}/gu) ?? []).length >= 3) expect(text.toLowerCase(), where).not.toContain(row.text.trim().toLowerCase());
        if (lang === 'ko') {
          expect(badNumberParticles(text), where).toEqual([]);
          expect(badWordParticles(text, [...(row.inputs?.keywords ?? []), row.inputs?.poemTitle ?? ''].filter(Boolean)), where).toEqual([]);
        } else {
          expect(body(text).match(/\ba (?:[aeio]\w+)|\ban (?:[bcdfgjklmnpqrstvwz]\w+)/gi) ?? [], where).toEqual([]);
        }
      }
      expect(a).not.toBe(s);
      if (process.env.DEMO_OVERLAP) console.log(tool, lang, overlap(words(a), words(s)).toFixed(2));
      // Factual answers must share their facts (a capital, a list of planets), so they may share more words.
      expect(overlap(words(a), words(s)), `${tool} ${lang}: shared words`).toBeLessThan(FACTUAL.has(tool) ? 0.45 : 0.3);
      if (row.items) {
        const [ia, is] = [itemsOf(a, row.items), itemsOf(s, row.items)];
        expect(ia.size, `${tool} ${lang}: atlas items`).toBeGreaterThan(0);
        expect(is.size, `${tool} ${lang}: sonnet items`).toBeGreaterThan(0);
        expect([...ia].filter((x) => is.has(x)), `${tool} ${lang}: items on both sides`).toEqual([]);
      }
      if (tool === 'game-ending-word') {
        const played = [a, s].map((t) => /\*\*([^*]+)\*\*/.exec(body(t))?.[1] ?? '');
        const last = (Array.from(row.text?.replace(/[^\p{L}]/gu, '') ?? '').at(-1) ?? '').toLowerCase();
        for (const w of played) {
          expect(w, `${tool} ${lang}`).not.toBe('');
          expect([last, DUEUM[last]], `${w} after ${row.text}`).toContain(Array.from(w)[0]?.toLowerCase());
          expect(w.toLowerCase()).not.toBe(row.text?.toLowerCase());
        }
        expect(played[0], 'the two models play different words').not.toBe(played[1]);
      }
    });
  });
});

describe('the table', () => {
  it('covers every tool in both languages', () => {
    for (const tool of TOOLS) {
      expect(TABLE[tool.slug]?.en.length, tool.slug).toBeGreaterThan(0);
      expect(TABLE[tool.slug]?.ko.length, tool.slug).toBeGreaterThan(0);
    }
  });
});
