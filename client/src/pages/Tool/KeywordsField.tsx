import { useState } from 'react';
import type { ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from './FieldError.tsx';
import { describedBy, fieldErrorId } from './form-ids.ts';
import { pasteKeywords, splitKeywords } from './keyword-paste.ts';
import { Need } from './Need.tsx';

interface KeywordsFieldProps {
  /** The form's id prefix. */
  formId: string;
  /** How many keywords the tool needs at least. */
  min: number;
  /** Every keyword box, as typed. */
  keywords: string[];
  /** A message per box that is too long (null where fine). */
  tooLong: Array<string | null>;
  /** Not enough keywords. */
  error: string | undefined;
  busy: boolean;
  onChange: (keywords: string[]) => void;
}

/** The five keyword boxes; a pasted list fills several at once. */
export function KeywordsField({ formId, min, keywords, tooLong, error, busy, onChange }: KeywordsFieldProps) {
  const { t } = useTranslation('battle');
  const [dropped, setDropped] = useState(0);
  const hintId = `${formId}-kw-hint`;
  const boxErrorId = (i: number) => `${fieldErrorId(formId, 'kw')}-${i}`;

  function onPaste(index: number, e: ClipboardEvent<HTMLInputElement>) {
    const parts = splitKeywords(e.clipboardData.getData('text'));
    if (parts.length < 2) return;
    e.preventDefault();
    const pasted = pasteKeywords(keywords, index, parts);
    onChange(pasted.keywords);
    setDropped(pasted.dropped);
  }

  return (
    <fieldset className="ask-field ask-field--group" aria-describedby={hintId}>
      <legend className="ask-field__label">
        {t('form.keywords')} <Need required={min > 0} />
      </legend>
      <p className="ask-field__hint" id={hintId}>
        {min > 0 ? t('form.keywordsHint', { count: min }) : t('form.keywordsHintOptional')}
      </p>
      <div className="ask-keywords">
        {keywords.map((k, i) => {
          const boxError = tooLong[i] ?? null;
          return (
            <div className="ask-keyword" key={i}>
              <label className="visually-hidden" htmlFor={`${formId}-kw-${i}`}>
                {t('form.keywordN', { n: i + 1 })}
              </label>
              <span className="ask-keyword__n" aria-hidden="true">
                {i + 1}
              </span>
              <input
                id={`${formId}-kw-${i}`}
                className="ask-input"
                type="text"
                value={k}
                placeholder={t('form.keywordPlaceholder')}
                onChange={(e) => {
                  const next = [...keywords];
                  next[i] = e.target.value;
                  onChange(next);
                  setDropped(0);
                }}
                onPaste={(e) => onPaste(i, e)}
                aria-invalid={!!boxError || (!!error && i === 0)}
                aria-required={i === 0 && min > 0}
                aria-describedby={describedBy(boxError && boxErrorId(i), i === 0 && error && fieldErrorId(formId, 'keywords'))}
                disabled={busy}
                autoComplete="off"
                data-testid={`keyword-${i + 1}`}
              />
            </div>
          );
        })}
      </div>
      {tooLong.map((message, i) => (
        <FieldError id={boxErrorId(i)} message={message} key={i} />
      ))}
      <FieldError id={fieldErrorId(formId, 'keywords')} message={error} />
      {dropped > 0 && (
        <p className="ask-field__note" role="status">
          {t('form.keywordsDropped', { count: dropped })}
        </p>
      )}
    </fieldset>
  );
}
