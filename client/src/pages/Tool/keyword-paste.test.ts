import { describe, expect, it } from 'vitest';
import { pasteKeywords, splitKeywords } from './keyword-paste.ts';

describe('pasting a list of keywords', () => {
  it('splits at commas of any width, semicolons and new lines, and drops blanks', () => {
    expect(splitKeywords('salt, rope，sea、wind;gull\nfoam\r\n , ')).toEqual(['salt', 'rope', 'sea', 'wind', 'gull', 'foam']);
    expect(splitKeywords('just one')).toEqual(['just one']);
  });

  it('fills the box pasted into and then the next empty ones, keeping what was typed', () => {
    const { keywords, dropped } = pasteKeywords(['salt', '', 'rope', '', ''], 1, ['sea', 'wind', 'gull']);
    expect(keywords).toEqual(['salt', 'sea', 'rope', 'wind', 'gull']);
    expect(dropped).toBe(0);
  });

  it('replaces what the box pasted into held', () => {
    expect(pasteKeywords(['salt', 'old', '', '', ''], 1, ['sea', 'wind']).keywords).toEqual(['salt', 'sea', 'wind', '', '']);
  });

  it('counts what does not fit in the five boxes', () => {
    const { keywords, dropped } = pasteKeywords(['', '', '', 'kept', ''], 2, ['a', 'b', 'c', 'd']);
    expect(keywords).toEqual(['', '', 'a', 'kept', 'b']);
    expect(dropped).toBe(2);
  });

  it('leaves the boxes it was given untouched', () => {
    const before = ['', '', '', '', ''];
    pasteKeywords(before, 0, ['a', 'b']);
    expect(before).toEqual(['', '', '', '', '']);
  });
});
