import { describe, expect, it } from 'vitest';
import { promptKey } from './prompt-key.ts';

describe('promptKey', () => {
  it('makes one question of the same words in any case, spacing and punctuation', () => {
    const key = promptKey('What is 2+2?');
    expect(key).toBe('whatis22');
    for (const same of ['what is 2 + 2', 'WHAT IS 2+2!!', '  What\tis\n2+2 ? ', '“What is 2+2？”', 'What is ２＋２', 'What\u00a0is\u200b 2+2…']) {
      expect(promptKey(same)).toBe(key);
    }
    expect(promptKey('What is 2+3?')).not.toBe(key);
    expect(promptKey('What was 2+2?')).not.toBe(key);
  });

  it('keeps Hangul as written, which has no case, and ignores Korean spacing and punctuation', () => {
    const key = promptKey('고양이와 강아지 중 어느 쪽이 더 좋은 반려동물인가요?');
    expect(key).toBe('고양이와강아지중어느쪽이더좋은반려동물인가요');
    expect(promptKey('고양이와 강아지 중 어느 쪽이 더 좋은 반려동물인가요 ?!')).toBe(key);
    expect(promptKey('고양이와강아지 중 어느쪽이 더 좋은 반려 동물인가요。')).toBe(key);
    expect(promptKey('고양이와 강아지 중 어느 쪽이 더 나쁜 반려동물인가요?')).not.toBe(key);
    // Letters of other scripts stay too, lower-cased where they have case.
    expect(promptKey('Ünïcödé ΣΟΦΊΑ ДА 日本語')).toBe('ünïcödéσοφίαда日本語');
  });

  it('gives no key to a question of symbols, emoji or punctuation only', () => {
    expect(promptKey('???')).toBe('');
    expect(promptKey('😀👍 ★ → …')).toBe('');
    expect(promptKey('   ')).toBe('');
  });
});
