import { findTool } from '@duet/contracts/catalog';
import type { ToolDefinition } from '@duet/contracts/tools';
import { describe, expect, it } from 'vitest';
import { requestFromDraft } from './battle-request.ts';
import type { Draft } from './tool-draft.ts';
import { emptyDraft } from './tool-draft.ts';

const tool = (slug: string): ToolDefinition => findTool(slug)!;

/** A draft with every input filled, as if the visitor had typed into fields the tool may not show. */
const filled = (over: Partial<Draft> = {}): Draft => ({
  poemTitle: '  Harbor lights ',
  keywords: [' salt ', '', '   ', 'rope', ''],
  genre: ' ballad ',
  language: 'en',
  category: 'film',
  text: 'Make it rhyme',
  ...over,
});

describe('the request a tool form sends', () => {
  it('sends only the inputs the tool takes, trimmed', () => {
    const req = requestFromDraft(tool('makeLyrics'), filled(), 'ko');
    expect(req).toEqual({
      tool: 'makeLyrics',
      inputs: { poemTitle: 'Harbor lights', keywords: ['salt', 'rope'], genre: 'ballad', language: 'en' },
      text: 'Make it rhyme',
      lang: 'ko',
    });
    expect(requestFromDraft(tool('netflix-recommend'), filled(), 'en').inputs).toEqual({ genre: 'ballad', category: 'film' });
    expect(requestFromDraft(tool('anything-question'), filled(), 'en').inputs).toEqual({});
  });

  it('trims keywords and drops the empty ones, and leaves keywords out when every box is empty', () => {
    const rap = tool('rap-lyrics');
    expect(requestFromDraft(rap, filled({ keywords: ['', ' neon', 'night ', '', ' '] }), 'en').inputs.keywords).toEqual(['neon', 'night']);
    expect(requestFromDraft(rap, filled({ keywords: ['', ' ', '', '\t', ''] }), 'en').inputs).not.toHaveProperty('keywords');
  });

  it('leaves out blank text inputs and an unchosen category, but always sends the chosen language', () => {
    const req = requestFromDraft(tool('makeLyrics'), filled({ poemTitle: '   ', genre: '' }), 'en');
    expect(req.inputs).toEqual({ keywords: ['salt', 'rope'], language: 'en' });
    expect(requestFromDraft(tool('netflix-recommend'), filled({ category: '', genre: '' }), 'en').inputs).toEqual({});
  });

  it('keeps the question as typed, and sends blank text as empty only where the question is optional', () => {
    expect(requestFromDraft(tool('anything-question'), filled({ text: '  Why is the sea salty? ' }), 'en').text).toBe('  Why is the sea salty? ');
    expect(requestFromDraft(tool('anything-question'), filled({ text: '   ' }), 'en').text).toBe('   ');
    expect(requestFromDraft(tool('math-solve'), filled({ text: '   ' }), 'en').text).toBe('');
  });

  it('sends an untouched form of a tool with only optional fields as an empty question', () => {
    expect(requestFromDraft(tool('title-academy'), emptyDraft('ko'), 'ko')).toEqual({ tool: 'title-academy', inputs: {}, text: '', lang: 'ko' });
  });
});
