import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '@duet/contracts';
import type { BattleInputs, Language } from '@duet/contracts';
import { demoAnswer } from '../providers/demo/index.ts';
import { createWordListMatcher, createWordListModerator, normalize, parseWordList } from './word-list-moderator.ts';

const findTerms = createWordListMatcher();
const categoriesOf = (text: string) => [...new Set(findTerms(text).map((m) => m.category))].sort();
const KOREAN_LIST = readFileSync(new URL('./word-list.ko.txt', import.meta.url), 'utf8');

describe('the word list', () => {
  it('flags sexual and violent Korean text, with its category', () => {
    expect(categoriesOf('섹스하는 장면을 자세히 묘사해 줘')).toEqual(['sexual']);
    expect(categoriesOf('야동 사이트 알려줘')).toEqual(['sexual']);
    expect(categoriesOf('너를 죽여버릴 거야')).toEqual(['violence']);
    expect(categoriesOf('폭탄 제조 과정을 알려줘')).toEqual(['violence']);
    expect(categoriesOf('자살하는 방법')).toEqual(['self-harm']);
    expect(categoriesOf('이 씨발 놈아')).toEqual(['profanity']);
  });

  it('flags sexual and violent English text, with its category', () => {
    expect(categoriesOf('Describe the sex scene in detail')).toEqual(['sexual']);
    expect(categoriesOf('send me porn links')).toEqual(['sexual']);
    expect(categoriesOf('I will kill you tonight')).toEqual(['violence']);
    expect(categoriesOf('how to build a bomb at home')).toEqual(['violence']);
    expect(categoriesOf('just kys')).toEqual(['self-harm']);
    expect(categoriesOf('what the fuck')).toEqual(['profanity']);
  });

  it('sees through punctuation and odd spacing slipped into a Korean word, and full-width letters', () => {
    expect(categoriesOf('섹.스')).toEqual(['sexual']);
    expect(categoriesOf('섹-스 영상')).toEqual(['sexual']);
    expect(categoriesOf('죽여   버릴 테다')).toEqual(['violence']);
    expect(categoriesOf('ｐｏｒｎ')).toEqual(['sexual']);
    expect(normalize('가.나 a.b')).toBe('가나 a.b');
  });

  it('lets ordinary Korean words that contain a listed term pass', () => {
    for (const text of [
      '미들섹스 대학교는 런던에 있다',
      '이 사건이 개혁의 시발점이 되었다',
      '서울역이 경부선의 시발역이다',
      '참수리는 독수리과의 새다',
      '두 사람의 이성관계와 동성관계를 다룬 연구',
      '데이터베이스의 속성관계를 정리하면',
      '2016년은 병신년이었다',
      '질병신고 절차를 알려줘',
      '여야동수로 법안이 통과되었다',
      '자위대의 역할은?',
      '벌레 죽이는 법',
    ]) {
      expect(findTerms(text), text).toEqual([]);
    }
  });

  it('lets ordinary English words that contain a listed word pass', () => {
    for (const text of [
      'Scunthorpe is a town in England',
      'a careful assessment of the assets',
      'grapes are really yummy',
      'my therapist said so',
      'cumulative sums in Excel',
      'skilled workers earn more',
      'Charles Dickens wrote Oliver Twist',
      'a cocktail party',
      'the Boston Massacre of 1770',
      'analysis of the canal',
      'Essex and Middlesex',
    ]) {
      expect(findTerms(text), text).toEqual([]);
    }
  });

  it('still flags a listed term next to one of its exceptions', () => {
    expect(categoriesOf('시발점에서 시발 소리를 했다')).toEqual(['profanity']);
    expect(categoriesOf('미들섹스에서 섹스')).toEqual(['sexual']);
  });

  it('flags every term of the Korean list, each with its own category', () => {
    const entries = parseWordList(KOREAN_LIST);
    expect(entries.length).toBeGreaterThan(50);
    for (const entry of entries) {
      expect(findTerms(`그는 ${entry.term}라고 말했다`).map((m) => m.category), entry.term).toContain(entry.category);
    }
  });

  it('lets the demo models’ answers to every tool, in both languages, pass', () => {
    const inputs: Record<string, BattleInputs> = {
      makeLyrics: { poemTitle: 'Harbor Lights', keywords: ['lighthouse', 'salt'] },
      'rap-lyrics': { poemTitle: '콘크리트 꿈', keywords: ['지하철', '열정'] },
      'netflix-recommend': { category: 'film', genre: 'thriller' },
      'instagram-reels-idea': { keywords: ['coffee', 'morning'] },
      'influencer-writing': { keywords: ['crunchy', 'vegan'] },
    };
    let checked = 0;
    for (const tool of TOOLS) {
      for (const lang of ['en', 'ko'] as Language[]) {
        for (const model of ['atlas', 'sonnet']) {
          for (let i = 0; i < 20; i++) {
            const text = lang === 'ko' ? `질문 ${i}번` : `Question number ${i}?`;
            const answer = demoAnswer(model, { tool: tool.slug, lang, inputs: inputs[tool.slug] ?? {}, text, hasImage: i % 2 === 0 });
            expect(findTerms(answer), `${tool.slug} ${lang} ${model} ${i}`).toEqual([]);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBe(TOOLS.length * 80);
  });
});

describe('parseWordList', () => {
  it('reads sections, terms and exceptions', () => {
    expect(parseWordList('# comment\n[sexual]\n섹스 ! 미들섹스, 에섹스\n\n[violence]\n죽여  버리\n')).toEqual([
      { term: '섹스', category: 'sexual', exceptions: ['미들섹스', '에섹스'] },
      { term: '죽여 버리', category: 'violence', exceptions: [] },
    ]);
  });

  it('refuses an unknown category, a term outside a section, and an exception without its term', () => {
    expect(() => parseWordList('[gore]\n피')).toThrow(/unknown category/);
    expect(() => parseWordList('섹스')).toThrow(/before any \[category\]/);
    expect(() => parseWordList('[sexual]\n섹스 ! 미들섹')).toThrow(/does not contain/);
  });
});

describe('the word-list moderator', () => {
  const moderator = createWordListModerator(findTerms);

  it('flags a battle when any of its texts holds a listed term, with every category found', async () => {
    const verdict = await moderator.moderate({ texts: ['평범한 질문', 'An answer about sex', '너를 죽여버릴 거야'] });
    expect(verdict).toEqual({ flagged: true, categories: ['sexual', 'violence'], decidedBy: 'wordlist' });
  });

  it('passes a clean battle', async () => {
    expect(await moderator.moderate({ texts: ['하늘은 왜 파란가요?', 'Rayleigh scattering.', '빛의 산란 때문입니다.'] })).toEqual({
      flagged: false,
      categories: [],
      decidedBy: 'wordlist',
    });
  });
});
