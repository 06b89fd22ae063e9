import { LIMITS } from '@duet/contracts/limits';
import type { ToolDefinition } from '@duet/contracts/tools';
import { useId, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from './FieldError.tsx';
import { describedBy, fieldErrorId } from './form-ids.ts';
import { ImageField } from './ImageField.tsx';
import { imageProblemMessage } from './messages.ts';
import { textFieldKeys } from './text-field.ts';
import { usePickedImage } from './use-picked-image.ts';
import './BattleTurns.css';

interface FollowUpFormProps {
  tool: ToolDefinition;
  /** The turn the follow-up would be: 2 for the first follow-up. */
  number: number;
  /** The most turns a battle may have; undefined while unknown. */
  maxTurns: number | undefined;
  sending: boolean;
  /** A translated message about the last refused follow-up. */
  serverError: string | null;
  onSubmit: (text: string, image: File | null) => void;
}

/**
 * Under a turn whose answers have both ended: a follow-up question for both models (each sees the
 * whole conversation), with an image where the tool takes one. Its limits are checked before sending.
 */
export function FollowUpForm({ tool, number, maxTurns, sending, serverError, onSubmit }: FollowUpFormProps) {
  const { t, i18n } = useTranslation('battle');
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const image = usePickedImage(true);

  const nf = new Intl.NumberFormat(i18n.language);
  const max = LIMITS.textMaxChars;
  const length = text.length;
  const over = length > max;
  const missing = text.trim() === '';
  const errors: { text?: string; image?: string } = {};
  if (over) errors.text = t(textFieldKeys(tool).tooLong, { length: nf.format(length), max: nf.format(max), over: nf.format(length - max) });
  else if (tried && missing) errors.text = t('followUp.required');
  if (image.problem) errors.image = imageProblemMessage(t, image.problem, i18n.language);

  const labelId = `${id}-label`;
  const textId = `${id}-text`;
  const counterId = `${id}-counter`;
  const turnId = `${id}-turn`;
  const textErrorId = fieldErrorId(id, 'text');

  function submit(e?: FormEvent) {
    e?.preventDefault();
    setTried(true);
    if (sending || image.checking) return;
    if (missing || over || image.problem) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    onSubmit(text.trim(), image.file);
  }

  // Ctrl+Enter (⌘+Enter) sends, as in chat boxes; Enter alone starts a new line.
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  }

  return (
    <form ref={formRef} className="follow-up duet-card ask" onSubmit={submit} noValidate aria-labelledby={labelId} data-testid="follow-up">
      <div className="ask-field">
        <div className="ask-field__top">
          <label className="ask-field__label follow-up__label" id={labelId} htmlFor={textId}>
            {t('followUp.label')}
          </label>
          <span className={`ask-counter${over ? ' ask-counter--over' : ''}`} id={counterId} data-testid="follow-up-counter">
            {t('form.counter', { used: nf.format(length), max: nf.format(max) })}
          </span>
        </div>
        <p className="follow-up__turn" id={turnId} data-testid="follow-up-turn">
          <span className="follow-up__turn-tag">
            {maxTurns === undefined ? t('followUp.turn', { number }) : t('followUp.turnOf', { number, max: maxTurns })}
          </span>{' '}
          {t('followUp.note')}
        </p>
        <textarea
          id={textId}
          className="ask-input ask-textarea"
          value={text}
          rows={3}
          placeholder={t('followUp.placeholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          aria-required="true"
          aria-invalid={!!errors.text}
          aria-describedby={describedBy(turnId, counterId, errors.text && textErrorId)}
          disabled={sending}
          data-testid="follow-up-text"
        />
        <FieldError id={textErrorId} message={errors.text} />
      </div>

      {tool.image !== 'none' && <ImageField formId={id} required={false} image={image} error={errors.image} busy={sending} />}

      {serverError && (
        <p className="ask__error" role="alert" data-testid="follow-up-error">
          {serverError}
        </p>
      )}

      <div className="follow-up__actions">
        <button type="submit" className="btn btn--primary" disabled={sending || over || image.checking} data-testid="follow-up-send">
          {sending ? t('followUp.sending') : t('followUp.send')}
        </button>
      </div>
    </form>
  );
}

/** In place of the form once the battle has all its turns: time to vote. */
export function TurnLimitNote({ maxTurns }: { maxTurns: number }) {
  const { t } = useTranslation('battle');
  return (
    <p className="follow-up-limit" data-testid="turn-limit">
      {t('followUp.limit', { max: maxTurns })}
    </p>
  );
}
