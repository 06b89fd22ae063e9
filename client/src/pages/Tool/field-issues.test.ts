import { findTool } from '@duet/contracts/catalog';
import type { ToolDefinition } from '@duet/contracts/tools';
import { describe, expect, it } from 'vitest';
import { requestFromDraft } from './battle-request.ts';
import { fieldOfIssuePath, missingFieldMessages, missingFields } from './field-issues.ts';
import { emptyDraft } from './tool-draft.ts';

const tool = (slug: string): ToolDefinition => findTool(slug)!;

describe('issues mapped to form fields', () => {
  it('maps the paths the gateway writes to the field they are about', () => {
    expect(fieldOfIssuePath('inputs.poemTitle')).toBe('poemTitle');
    expect(fieldOfIssuePath('inputs.keywords')).toBe('keywords');
    expect(fieldOfIssuePath('inputs.keywords.3')).toBe('keywords');
    expect(fieldOfIssuePath('inputs.genre')).toBe('genre');
    expect(fieldOfIssuePath('inputs.language')).toBe('language');
    expect(fieldOfIssuePath('inputs.category')).toBe('category');
    expect(fieldOfIssuePath('image')).toBe('image');
    expect(fieldOfIssuePath('text')).toBe('text');
  });

  it('puts an issue about anything the form has no field for under the question', () => {
    expect(fieldOfIssuePath('inputs.mood')).toBe('text');
    expect(fieldOfIssuePath('lang')).toBe('text');
    expect(fieldOfIssuePath('')).toBe('text');
  });

  it('asks for each missing field of an empty form, keywords with the number the tool needs', () => {
    const rap = tool('rap-lyrics');
    const issues = missingFields(rap, requestFromDraft(rap, emptyDraft('en'), 'en'), false);
    expect(missingFieldMessages(rap, issues)).toEqual({
      poemTitle: { key: 'validation.poemTitleRequired' },
      keywords: { key: 'validation.keywordsRequired', values: { count: 1 } },
    });
    const netflix = tool('netflix-recommend');
    expect(missingFieldMessages(netflix, missingFields(netflix, requestFromDraft(netflix, emptyDraft('en'), 'en'), false))).toEqual({
      category: { key: 'validation.categoryRequired' },
    });
  });

  it('asks for the question and for the image a tool needs, and for nothing once they are there', () => {
    const anything = tool('anything-question');
    const blank = requestFromDraft(anything, emptyDraft('en'), 'en');
    expect(missingFieldMessages(anything, missingFields(anything, blank, false))).toEqual({ text: { key: 'validation.textRequired' } });
    expect(missingFields(anything, { ...blank, text: 'Why?' }, false)).toEqual([]);

    const math = tool('math-solve');
    const photo = requestFromDraft(math, emptyDraft('en'), 'en');
    expect(missingFieldMessages(math, missingFields(math, photo, false))).toEqual({ image: { key: 'validation.imageRequired' } });
    expect(missingFields(math, photo, true)).toEqual([]);
  });

  it('asks once for a field however many issues name it', () => {
    const rap = tool('rap-lyrics');
    const messages = missingFieldMessages(rap, [
      { path: 'inputs.keywords', message: 'At least 1 keyword(s) needed' },
      { path: 'inputs.keywords.0', message: 'A keyword cannot be empty' },
      { path: 'text', message: 'This tool needs a question' },
    ]);
    expect(messages).toEqual({
      keywords: { key: 'validation.keywordsRequired', values: { count: 1 } },
      text: { key: 'validation.textRequired' },
    });
  });
});
