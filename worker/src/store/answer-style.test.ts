import { describe, expect, it } from 'vitest';
import { answerStyle } from './answer-style.ts';

describe('answer style', () => {
  it('counts headings, list items, bold spans and code blocks as Markdown renders them', () => {
    const text = [
      '# Title',
      '',
      'Some **bold** and __also bold__ text, not *italic*.',
      '',
      '## Steps',
      '',
      '1. one',
      '2. two',
      '   - nested',
      '',
      '```ts',
      'const x = "# not a heading";',
      '```',
      '',
      '    indented code',
    ].join('\n');
    expect(answerStyle(text)).toEqual({ length: [...text].length, headers: 2, listItems: 3, bold: 2, codeBlocks: 2 });
  });

  it('counts Korean text by characters and plain text as no Markdown at all', () => {
    expect(answerStyle('안녕하세요 * 별표 # 아님')).toEqual({ length: 15, headers: 0, listItems: 0, bold: 0, codeBlocks: 0 });
    expect(answerStyle('')).toEqual({ length: 0, headers: 0, listItems: 0, bold: 0, codeBlocks: 0 });
  });
});
