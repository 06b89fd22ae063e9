import { describe, expect, it } from 'vitest';
import { findTool } from './catalog.ts';
import { ZCreateBattleRequestSchema } from './schemas/battle.schema.ts';
import { checkToolFields } from './validate.ts';

const check = (slug: string, body: object) => checkToolFields(findTool(slug)!, ZCreateBattleRequestSchema.parse({ tool: slug, ...body }));

describe('checkToolFields', () => {
  it('accepts a complete lyrics request', () => {
    expect(check('makeLyrics', { inputs: { poemTitle: 'Rain', keywords: ['a'] } })).toEqual([]);
  });

  it('names each missing required field', () => {
    expect(check('makeLyrics', {}).map((i) => i.path)).toEqual(['inputs.poemTitle', 'inputs.keywords']);
    expect(check('netflix-recommend', {}).map((i) => i.path)).toEqual(['inputs.category']);
    expect(check('quiz-solving', { text: ' ' }).map((i) => i.path)).toEqual(['text']);
  });

  it('refuses fields the tool does not take', () => {
    expect(check('quiz-solving', { text: 'q', inputs: { genre: 'x' } }).map((i) => i.path)).toEqual(['inputs.genre']);
  });

  it('finds tools by slug and by route', () => {
    expect(findTool('math-solve-duet1')?.slug).toBe('math-solve');
    expect(findTool('/makeLyrics-duet')?.slug).toBe('makeLyrics');
    expect(findTool('nope')).toBeUndefined();
  });
});
