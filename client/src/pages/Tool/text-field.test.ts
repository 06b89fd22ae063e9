import { TOOLS } from '@duet/contracts/catalog';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en/battle.json';
import ko from '../../i18n/locales/ko/battle.json';
import { requestFromDraft } from './battle-request.ts';
import { missingFieldMessages, missingFields } from './field-issues.ts';
import { textFieldKeys } from './text-field.ts';
import { emptyDraft } from './tool-draft.ts';

const locales = { en, ko };
const text = (lang: keyof typeof locales, key: string): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locales[lang]);
  if (typeof value !== 'string') throw new Error(`no ${lang} text for ${key}`);
  return value;
};
const wordChain = TOOLS.find((t) => t.slug === 'game-ending-word')!;

describe('the text field’s words', () => {
  it('asks the word chain for a word, never a question, in both languages', () => {
    const keys = textFieldKeys(wordChain);
    const shown = (lang: keyof typeof locales) => Object.values(keys).map((k) => text(lang, k)).join(' | ');
    expect(shown('en')).toMatch(/word/i);
    expect(shown('en')).not.toMatch(/question/i);
    expect(shown('ko')).toContain('단어');
    expect(shown('ko')).not.toContain('질문');
    const issues = missingFields(wordChain, requestFromDraft(wordChain, emptyDraft('ko'), 'ko'), false);
    expect(missingFieldMessages(wordChain, issues)).toEqual({ text: { key: 'validation.wordRequired' } });
  });

  it('asks every other tool for a question, or for extra wishes where the text is optional', () => {
    for (const tool of TOOLS.filter((t) => t !== wordChain && t.fields.text)) {
      const keys = textFieldKeys(tool);
      for (const lang of ['en', 'ko'] as const) for (const key of Object.values(keys)) expect(text(lang, key)).not.toBe('');
      expect(keys.label).toBe(tool.fields.text === 'required' ? 'form.textRequired' : 'form.textOptional');
    }
  });
});
