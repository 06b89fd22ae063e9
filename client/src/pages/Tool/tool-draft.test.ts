import { describe, expect, it } from 'vitest';
import type { Draft } from './tool-draft.ts';
import { draftKey, emptyDraft, loadDraft, parseDraft, saveDraft } from './tool-draft.ts';

/** A Storage-like map, optionally refusing every write (a full or blocked storage). */
function memoryStorage(opts: { refuseWrites?: boolean } = {}) {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (opts.refuseWrites) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(key, value);
    },
  };
}

const typed: Draft = {
  poemTitle: 'Harbor lights',
  keywords: ['salt', '', 'rope', '', ''],
  genre: 'ballad',
  language: 'en',
  category: 'drama',
  text: 'Make it rhyme',
};

describe('the unfinished tool form', () => {
  it('comes back as it was typed, per tool', () => {
    const storage = memoryStorage();
    saveDraft(storage, 'makeLyrics', typed);
    expect(loadDraft(storage, 'makeLyrics', 'ko')).toEqual(typed);
    expect(loadDraft(storage, 'rap-lyrics', 'ko')).toEqual(emptyDraft('ko'));
    expect([...storage.items.keys()]).toEqual([draftKey('makeLyrics')]);
  });

  it('starts empty with five keyword boxes and the interface language', () => {
    expect(loadDraft(memoryStorage(), 'makeLyrics', 'en')).toEqual({
      poemTitle: '',
      keywords: ['', '', '', '', ''],
      genre: '',
      language: 'en',
      category: '',
      text: '',
    });
  });

  it('always has five keyword boxes, however many were stored', () => {
    expect(parseDraft(JSON.stringify({ keywords: ['a', 'b'] }), 'ko').keywords).toEqual(['a', 'b', '', '', '']);
    expect(parseDraft(JSON.stringify({ keywords: ['1', '2', '3', '4', '5', '6', '7'] }), 'ko').keywords).toEqual(['1', '2', '3', '4', '5']);
  });

  it('starts empty from a stored draft that is not JSON or not an object', () => {
    for (const raw of ['{"poemTitle":', 'null', '42', '"text"']) expect(parseDraft(raw, 'ko')).toEqual(emptyDraft('ko'));
  });

  it('keeps what it can of a stored draft of the wrong shape and empties the rest', () => {
    const raw = JSON.stringify({ poemTitle: 7, keywords: 'salt', genre: 'ballad', language: 'fr', category: 'opera', text: null });
    expect(parseDraft(raw, 'en')).toEqual({ ...emptyDraft('en'), genre: 'ballad' });
  });

  it('starts empty when the storage cannot be read, and keeps working when it cannot be written', () => {
    const broken = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    };
    expect(loadDraft(broken, 'makeLyrics', 'ko')).toEqual(emptyDraft('ko'));
    expect(() => saveDraft(memoryStorage({ refuseWrites: true }), 'makeLyrics', typed)).not.toThrow();
  });
});
