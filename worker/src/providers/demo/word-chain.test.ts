import { describe, expect, it } from 'vitest';
import { chains, EN_WORDS, KO_WORDS, playMove } from './word-chain.ts';

describe('word chain', () => {
  it('knows only words it can define, each at least two letters long', () => {
    for (const dict of [KO_WORDS, EN_WORDS]) {
      for (const [first, entries] of dict) {
        for (const [word, meaning] of entries) {
          expect(Array.from(word)[0]).toBe(first);
          expect(Array.from(word).length).toBeGreaterThan(1);
          expect(meaning.length).toBeGreaterThan(3);
        }
      }
    }
  });

  it('chains on the last syllable, or its 두음법칙 form', () => {
    expect(chains('사과', '과자')).toBe(true);
    expect(chains('노래', '내일')).toBe(true);
    expect(chains('노래', '래미안')).toBe(true);
    expect(chains('사과', '사자')).toBe(false);
    expect(chains('apple', 'Eagle')).toBe(true);
  });

  it('plays a legal, different word, and the two strategies pick different ones', () => {
    for (const [word, lang] of [['사과', 'ko'], ['기린', 'ko'], ['노래', 'ko'], ['apple', 'en'], ['banana', 'en']] as const) {
      const trap = playMove(word, lang, 'trap');
      const friendly = playMove(word, lang, 'friendly');
      for (const m of [trap, friendly]) {
        expect(m.reply, word).toBeDefined();
        expect(chains(word, m.reply?.[0] ?? ''), `${word} → ${m.reply?.[0]}`).toBe(true);
        expect(m.reply?.[0]).not.toBe(word);
      }
      expect(trap.reply?.[0]).not.toBe(friendly.reply?.[0]);
    }
  });

  it('concedes when no word follows, and notes the rules a word breaks', () => {
    expect(playMove('구름', 'ko', 'trap').reply).toBeUndefined();
    expect(playMove('1234', 'en', 'trap').last).toBeUndefined();
    expect(playMove('차', 'ko', 'trap').oneLetter).toBe(true);
    expect(playMove('ice cream', 'en', 'trap').severalWords).toBe(true);
  });
});
