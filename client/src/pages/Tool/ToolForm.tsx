import type { CreateBattleRequest } from '@duet/contracts';
import { LANGUAGES, LIMITS } from '@duet/contracts/limits';
import type { Language } from '@duet/contracts/limits';
import type { ToolDefinition } from '@duet/contracts/tools';
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadMarkdown } from '../../components/Markdown/LazyMarkdown.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { CATEGORY_LABELS, LANGUAGE_LABELS } from '../../i18n/input-labels.ts';
import { requestFromDraft } from './battle-request.ts';
import type { FormField } from './field-issues.ts';
import { missingFieldMessages, missingFields } from './field-issues.ts';
import { FieldError } from './FieldError.tsx';
import { describedBy, fieldErrorId } from './form-ids.ts';
import { ImageField } from './ImageField.tsx';
import { KeywordsField } from './KeywordsField.tsx';
import { imageProblemMessage } from './messages.ts';
import { ModelChoice } from './ModelChoice.tsx';
import type { ModelOption, ModelPicks } from './model-choice.ts';
import { chosenPair, NO_PICKS, pickModel } from './model-choice.ts';
import { Need } from './Need.tsx';
import { textFieldKeys, textKindOf } from './text-field.ts';
import { CATEGORIES } from './tool-draft.ts';
import { usePickedImage } from './use-picked-image.ts';
import { useToolDraft } from './use-tool-draft.ts';
import './ToolForm.css';
import { useAuthDialog } from '../../state/auth-dialog.ts';

interface ToolFormProps {
  tool: ToolDefinition;
  /** A battle is being created or is still answering. */
  busy: boolean;
  submitting: boolean;
  /** The battle asked waits in the queue for a worker. */
  inLine?: boolean;
  /** A translated message about the last failed request. */
  serverError: string | null;
  /** The failed request is one an account would let through: a sign-up button goes with the message. */
  offerSignUp?: boolean;
  /** The models the visitor may choose instead of a blind draw; fewer than two hides the choice. */
  models?: readonly ModelOption[];
  onSubmit: (req: CreateBattleRequest, image: File | null) => void;
}

/** The tool's own question form: only the fields the tool has, every limit checked before sending. */
export function ToolForm({ tool, busy, submitting, inLine, serverError, offerSignUp, models = [], onSubmit }: ToolFormProps) {
  const { t, i18n } = useTranslation('battle');
  const id = useId();
  const f = tool.fields;
  const { draft, set } = useToolDraft(tool.slug);
  const image = usePickedImage();
  const [tried, setTried] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [choosing, setChoosing] = useState(false);
  const [picks, setPicks] = useState<ModelPicks>(NO_PICKS);
  const pair = chosenPair(models, picks);

  const nf = new Intl.NumberFormat(i18n.language);
  const max = LIMITS.textMaxChars;
  const textKeys = textFieldKeys(tool);
  const textLength = draft.text.length;
  const textOver = textLength > max;
  const drafted = requestFromDraft(tool, draft, currentLanguage());
  // A blind battle's request is the draft's alone: `models` only when the visitor named two.
  const req: CreateBattleRequest = choosing && pair ? { ...drafted, models: pair } : drafted;
  const missing = missingFields(tool, req, !!image.file);

  // Missing fields are shown once the visitor tries to send; limits as soon as they are broken.
  const errors: Partial<Record<FormField, string>> = {};
  if (tried) {
    for (const [field, message] of Object.entries(missingFieldMessages(tool, missing))) {
      errors[field as FormField] = t(message.key, message.values);
    }
  }
  if (f.text && textOver) {
    errors.text = t(textKeys.tooLong, { length: nf.format(textLength), max: nf.format(max), over: nf.format(textLength - max) });
  }
  if (image.problem) errors.image = imageProblemMessage(t, image.problem, i18n.language);
  const keywordErrors = draft.keywords.map((k, i) =>
    f.keywords && k.trim().length > LIMITS.keywordMaxChars
      ? t('validation.keywordTooLong', { n: i + 1, count: k.trim().length, max: LIMITS.keywordMaxChars })
      : null,
  );
  const blocking = textOver || keywordErrors.some(Boolean) || image.checking;

  function focusFirstInvalid() {
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>(':is(input, textarea, select)[aria-invalid="true"]')?.focus();
    });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (busy || blocking || missing.length > 0 || image.problem) return focusFirstInvalid();
    onSubmit(req, image.file);
  }

  const errId = (name: FormField) => fieldErrorId(id, name);
  const guidanceId = `${id}-guidance`;
  const textRequired = f.text === 'required';
  const counterId = `${id}-counter`;

  const imageField = tool.image !== 'none' && (
    <ImageField formId={id} required={tool.image === 'required'} image={image} error={errors.image} busy={busy} />
  );

  return (
    <form ref={formRef} className="ask" onSubmit={submit} onFocus={preloadMarkdown} noValidate aria-describedby={guidanceId}>
      <p className="ask__guidance" id={guidanceId}>
        <span className="ask__guidance-tag">{t('tool.guidance')}</span>
        {t(`contents:${tool.slug}.prompt`)}
      </p>

      {f.poemTitle && (
        <div className="ask-field">
          <div className="ask-field__labelrow">
            <label className="ask-field__label" htmlFor={`${id}-title`}>
              {t('form.poemTitle')}
            </label>
            <Need required={f.poemTitle === 'required'} />
          </div>
          <input
            id={`${id}-title`}
            className="ask-input"
            type="text"
            value={draft.poemTitle}
            maxLength={LIMITS.shortFieldMaxChars}
            placeholder={t('form.poemTitlePlaceholder')}
            onChange={(e) => set('poemTitle', e.target.value)}
            aria-required={f.poemTitle === 'required'}
            aria-invalid={!!errors.poemTitle}
            aria-describedby={describedBy(errors.poemTitle && errId('poemTitle'))}
            disabled={busy}
            autoComplete="off"
          />
          <FieldError id={errId('poemTitle')} message={errors.poemTitle} />
        </div>
      )}

      {f.keywords && (
        <KeywordsField
          formId={id}
          min={f.keywords.min}
          keywords={draft.keywords}
          tooLong={keywordErrors}
          error={errors.keywords}
          busy={busy}
          onChange={(keywords) => set('keywords', keywords)}
        />
      )}

      {(f.genre || f.language) && (
        <div className="ask-row">
          {f.genre && (
            <div className="ask-field">
              <div className="ask-field__labelrow">
                <label className="ask-field__label" htmlFor={`${id}-genre`}>
                  {t('form.genre')}
                </label>
                <Need required={f.genre === 'required'} />
              </div>
              <input
                id={`${id}-genre`}
                className="ask-input"
                type="text"
                value={draft.genre}
                maxLength={LIMITS.shortFieldMaxChars}
                placeholder={t('form.genrePlaceholder')}
                onChange={(e) => set('genre', e.target.value)}
                aria-required={f.genre === 'required'}
                aria-invalid={!!errors.genre}
                aria-describedby={describedBy(errors.genre && errId('genre'))}
                disabled={busy}
                autoComplete="off"
              />
              <FieldError id={errId('genre')} message={errors.genre} />
            </div>
          )}
          {f.language && (
            <div className="ask-field">
              <div className="ask-field__labelrow">
                <label className="ask-field__label" htmlFor={`${id}-lang`}>
                  {t('form.language')}
                </label>
                <Need required={f.language === 'required'} />
              </div>
              <select
                id={`${id}-lang`}
                className="ask-input ask-select"
                value={draft.language}
                onChange={(e) => set('language', e.target.value as Language)}
                aria-invalid={!!errors.language}
                disabled={busy}
              >
                {LANGUAGES.map((language) => (
                  <option value={language} key={language}>
                    {t(LANGUAGE_LABELS[language])}
                  </option>
                ))}
              </select>
              <FieldError id={errId('language')} message={errors.language} />
            </div>
          )}
        </div>
      )}

      {f.category && (
        <fieldset
          className="ask-field ask-field--group"
          role="radiogroup"
          aria-required={f.category === 'required'}
          aria-invalid={!!errors.category}
          aria-describedby={describedBy(errors.category && errId('category'))}
        >
          <legend className="ask-field__label">
            {t('form.category')} <Need required={f.category === 'required'} />
          </legend>
          <div className="ask-choices">
            {CATEGORIES.map((c) => (
              <label className={`ask-choice${draft.category === c ? ' ask-choice--on' : ''}`} key={c}>
                <input
                  type="radio"
                  name={`${id}-category`}
                  value={c}
                  checked={draft.category === c}
                  onChange={() => set('category', c)}
                  aria-invalid={!!errors.category}
                  disabled={busy}
                />
                <span>{t(CATEGORY_LABELS[c])}</span>
              </label>
            ))}
          </div>
          <FieldError id={errId('category')} message={errors.category} />
        </fieldset>
      )}

      {tool.image === 'required' && imageField}

      <div className="ask-field">
        <div className="ask-field__top">
          <div className="ask-field__labelrow">
            <label className="ask-field__label" htmlFor={`${id}-text`}>
              {t(textKeys.label)}
            </label>
            <Need required={textRequired} />
          </div>
          <span className={`ask-counter${textOver ? ' ask-counter--over' : ''}`} id={counterId} data-testid="text-counter">
            {t('form.counter', { used: nf.format(textLength), max: nf.format(max) })}
          </span>
        </div>
        {textKindOf(tool) === 'word' ? (
          <input
            id={`${id}-text`}
            className="ask-input"
            type="text"
            value={draft.text}
            placeholder={t(textKeys.placeholder)}
            onChange={(e) => set('text', e.target.value)}
            aria-required={textRequired}
            aria-invalid={!!errors.text}
            aria-describedby={describedBy(counterId, errors.text && errId('text'))}
            disabled={busy}
            autoComplete="off"
            enterKeyHint="send"
          />
        ) : (
          <textarea
            id={`${id}-text`}
            className="ask-input ask-textarea"
            value={draft.text}
            rows={textRequired ? 6 : 3}
            placeholder={t(textKeys.placeholder)}
            onChange={(e) => set('text', e.target.value)}
            aria-required={textRequired}
            aria-invalid={!!errors.text}
            aria-describedby={describedBy(counterId, errors.text && errId('text'))}
            disabled={busy}
          />
        )}
        <FieldError id={errId('text')} message={errors.text} />
      </div>

      {tool.image === 'optional' && imageField}

      {pair && (
        <ModelChoice
          formId={id}
          models={models}
          pair={pair}
          choosing={choosing}
          busy={busy}
          onMode={setChoosing}
          onPick={(side, model) => setPicks(pickModel(pair, side, model))}
        />
      )}

      {serverError && (
        <p className="ask__error" role="alert" data-testid="form-error">
          {serverError}
          {offerSignUp && (
            <button type="button" className="btn btn--primary btn--sm ask__signup" onClick={() => useAuthDialog.getState().request('signup')} data-testid="form-signup">
              {t('form.signUpForMore')}
            </button>
          )}
        </p>
      )}

      <div className="ask__actions">
        <p className="ask__content-note" data-testid="content-note">
          {t('form.contentNote')}
        </p>
        <button type="submit" className="btn btn--primary btn--lg" disabled={busy || blocking} data-testid="submit">
          {submitting ? t('form.submitting') : busy && inLine ? t('form.inLine') : busy ? t('form.answering') : t('form.submit')}
        </button>
      </div>
    </form>
  );
}
