import type { BattleInputs, CreateBattleRequest } from '@duet/shared';
import { LIMITS } from '@duet/shared/limits';
import type { Language } from '@duet/shared/limits';
import type { ToolDefinition } from '@duet/shared/tools';
import { checkToolFields } from '@duet/shared/validate';
import { useEffect, useId, useRef, useState } from 'react';
import type { ClipboardEvent, DragEvent, FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/index.ts';
import { useDuetStore } from '../../state/store.ts';
import { checkImage } from './image-check.ts';
import type { ImageProblem } from './image-check.ts';

/** What the visitor has typed; kept for the tab's session so a reload keeps the question. */
interface Draft {
  poemTitle: string;
  keywords: string[];
  genre: string;
  language: Language;
  category: '' | 'drama' | 'film';
  text: string;
}

type FieldName = 'poemTitle' | 'keywords' | 'genre' | 'language' | 'category' | 'text' | 'image';

const emptyDraft = (): Draft => ({
  poemTitle: '',
  keywords: Array.from({ length: LIMITS.keywordsMax }, () => ''),
  genre: '',
  language: currentLanguage(),
  category: '',
  text: '',
});

const draftKey = (tool: string) => `duet_draft_${tool}`;

function loadDraft(tool: string): Draft {
  const base = emptyDraft();
  try {
    const raw = sessionStorage.getItem(draftKey(tool));
    if (!raw) return base;
    const saved = JSON.parse(raw) as Partial<Draft>;
    const keywords = Array.isArray(saved.keywords) ? saved.keywords.map(String) : [];
    return {
      ...base,
      ...saved,
      keywords: base.keywords.map((_, i) => keywords[i] ?? ''),
    };
  } catch {
    return base;
  }
}

/** Splits a pasted list into keywords: commas (any width), semicolons, new lines. */
const splitKeywords = (text: string): string[] =>
  text
    .split(/[,，、;\n\r]+/)
    .map((k) => k.trim())
    .filter(Boolean);

/** Builds the request body from the draft: only the fields this tool has, only what is filled. */
function buildRequest(tool: ToolDefinition, d: Draft): CreateBattleRequest {
  const f = tool.fields;
  const inputs: BattleInputs = {};
  if (f.poemTitle && d.poemTitle.trim()) inputs.poemTitle = d.poemTitle.trim();
  if (f.keywords) {
    const keywords = d.keywords.map((k) => k.trim()).filter(Boolean);
    if (keywords.length) inputs.keywords = keywords;
  }
  if (f.genre && d.genre.trim()) inputs.genre = d.genre.trim();
  if (f.language) inputs.language = d.language;
  if (f.category && d.category) inputs.category = d.category;
  return { tool: tool.slug, inputs, text: f.text === 'required' || d.text.trim() ? d.text : '', lang: currentLanguage() };
}

const fieldOfPath = (path: string): FieldName => {
  const name = path.replace(/^inputs\./, '').split('.')[0];
  return (['poemTitle', 'keywords', 'genre', 'language', 'category'] as const).find((n) => n === name) ?? 'text';
};

interface ToolFormProps {
  tool: ToolDefinition;
  /** A battle is being created or is still answering. */
  busy: boolean;
  submitting: boolean;
  /** A translated message about the last failed request. */
  serverError: string | null;
  onSubmit: (req: CreateBattleRequest, image: File | null) => void;
}

/** The tool's own question form: only the fields the tool has, every limit checked before sending. */
export function ToolForm({ tool, busy, submitting, serverError, onSubmit }: ToolFormProps) {
  const { t, i18n } = useTranslation('battle');
  const id = useId();
  const f = tool.fields;
  const [draft, setDraft] = useState<Draft>(() => loadDraft(tool.slug));
  const [file, setFile] = useState<File | null>(null);
  const [imageProblem, setImageProblem] = useState<{ problem: ImageProblem; size: number } | null>(null);
  const [checkingImage, setCheckingImage] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [tried, setTried] = useState(false);
  const [dropped, setDropped] = useState(0);
  const uploadedImage = useDuetStore((s) => s.uploadedImage);
  const setUploadedImage = useDuetStore((s) => s.setUploadedImage);
  const formRef = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    sessionStorage.setItem(draftKey(tool.slug), JSON.stringify(draft));
  }, [draft, tool.slug]);

  // The preview's object URL belongs to this form.
  useEffect(() => () => setUploadedImage(''), [setUploadedImage]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const nf = new Intl.NumberFormat(i18n.language);
  const max = LIMITS.textMaxChars;
  const textLength = draft.text.length;
  const textOver = textLength > max;

  // Limits are shown as soon as they are broken; missing fields once the visitor tries to send.
  const errors: Partial<Record<FieldName, string>> = {};
  const keywordErrors = draft.keywords.map((k, i) =>
    f.keywords && k.trim().length > LIMITS.keywordMaxChars
      ? t('validation.keywordTooLong', { n: i + 1, count: k.trim().length, max: LIMITS.keywordMaxChars })
      : null,
  );
  if (f.text && textOver) {
    errors.text = t('validation.textTooLong', { length: nf.format(textLength), max: nf.format(max), over: nf.format(textLength - max) });
  }
  if (imageProblem) {
    errors.image =
      imageProblem.problem === 'image_too_large'
        ? t('validation.imageTooLarge', { size: formatBytes(imageProblem.size, i18n.language) })
        : imageProblem.problem === 'image_empty'
          ? t('validation.imageEmpty')
          : t('validation.imageType');
  }
  const req = buildRequest(tool, draft);
  if (tried) {
    for (const issue of checkToolFields(tool, req)) {
      const field = fieldOfPath(issue.path);
      if (errors[field]) continue;
      if (field === 'keywords') {
        const min = f.keywords?.min ?? 1;
        errors.keywords = t('validation.keywordsRequired', { count: min });
      } else {
        errors[field] = t(`validation.${field}Required` as 'validation.textRequired');
      }
    }
    if (tool.image === 'required' && !file && !errors.image) errors.image = t('validation.imageRequired');
  }
  const blocking = textOver || keywordErrors.some(Boolean) || checkingImage;

  function focusFirstInvalid() {
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>(':is(input, textarea, select)[aria-invalid="true"]')?.focus();
    });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (busy || blocking) return focusFirstInvalid();
    const missing = checkToolFields(tool, req).length > 0 || (tool.image === 'required' && !file);
    if (missing || imageProblem) return focusFirstInvalid();
    onSubmit(req, file);
  }

  async function pickFile(picked: File | undefined) {
    if (fileInput.current) fileInput.current.value = '';
    if (!picked) return;
    setCheckingImage(true);
    const problem = await checkImage(picked).catch((): ImageProblem => 'unsupported_image_type');
    setCheckingImage(false);
    if (problem) {
      setFile(null);
      setUploadedImage('');
      setImageProblem({ problem, size: picked.size });
      return;
    }
    setImageProblem(null);
    setFile(picked);
    setUploadedImage(URL.createObjectURL(picked));
  }

  function removeImage() {
    setFile(null);
    setImageProblem(null);
    setUploadedImage('');
    requestAnimationFrame(() => fileInput.current?.focus());
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    void pickFile(e.dataTransfer.files[0]);
  }

  /** A pasted list fills this keyword and the next empty ones; beyond five, the rest is left out. */
  function onKeywordPaste(index: number, e: ClipboardEvent<HTMLInputElement>) {
    const parts = splitKeywords(e.clipboardData.getData('text'));
    if (parts.length < 2) return;
    e.preventDefault();
    const keywords = [...draft.keywords];
    let i = index;
    let placed = 0;
    for (const part of parts) {
      while (i < keywords.length && i !== index && keywords[i]!.trim() !== '') i++;
      if (i >= keywords.length) break;
      keywords[i] = part;
      placed++;
      i++;
    }
    set('keywords', keywords);
    setDropped(parts.length - placed);
  }

  const errId = (name: string) => `${id}-${name}-error`;
  const describe = (...ids: Array<string | false | null | undefined>) => ids.filter(Boolean).join(' ') || undefined;
  const fieldError = (name: FieldName) =>
    errors[name] ? (
      <p className="ask-field__error" id={errId(name)} role="alert">
        {errors[name]}
      </p>
    ) : null;

  const guidanceId = `${id}-guidance`;
  const textRequired = f.text === 'required';
  const kwHintId = `${id}-kw-hint`;
  const counterId = `${id}-counter`;
  const imageHintId = `${id}-image-hint`;

  const imageField = tool.image !== 'none' && (
        <div className="ask-field">
          <div className="ask-field__labelrow">
            <span className="ask-field__label" id={`${id}-image-label`}>
              {t('form.image')}
            </span>
            <Need required={tool.image === 'required'} />
          </div>
          {file && uploadedImage ? (
            <div className="ask-preview">
              <img src={uploadedImage} alt={t('form.imagePreview')} className="ask-preview__img" />
              <div className="ask-preview__meta">
                <span className="ask-preview__name">{file.name}</span>
                <span className="ask-preview__size">{formatBytes(file.size, i18n.language)}</span>
                <button type="button" className="btn btn--sm btn--danger" onClick={removeImage} disabled={busy}>
                  {t('form.imageRemove')}
                </button>
              </div>
            </div>
          ) : (
            <div
              className={`ask-drop${dragging ? ' ask-drop--over' : ''}${errors.image ? ' ask-drop--invalid' : ''}`}
              onDragOver={(e) => {
                e.preventDefault();
                if (!busy) setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-testid="image-dropzone"
            >
              <input
                ref={fileInput}
                id={`${id}-image`}
                className="visually-hidden ask-drop__input"
                type="file"
                accept={LIMITS.imageMimeTypes.join(',')}
                onChange={(e) => void pickFile(e.target.files?.[0])}
                aria-labelledby={`${id}-image-label ${id}-image-choose`}
                aria-describedby={describe(imageHintId, errors.image && errId('image'))}
                aria-invalid={!!errors.image}
                aria-required={tool.image === 'required'}
                disabled={busy}
                data-testid="image-input"
              />
              <label htmlFor={`${id}-image`} className="ask-drop__label">
                <svg className="ask-drop__icon" viewBox="0 0 24 24" aria-hidden="true" width="32" height="32">
                  <path
                    fill="currentColor"
                    d="M19 5v14H5V5h14m0-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zm-4.86 8.86-3 3.87L9 13.14 6 17h12l-3.86-5.14z"
                  />
                </svg>
                <span>
                  {dragging ? (
                    t('form.imageDropActive')
                  ) : (
                    <>
                      {t('form.imageDrop')} <span className="ask-drop__choose" id={`${id}-image-choose`}>{t('form.imageChoose')}</span>
                    </>
                  )}
                </span>
                <span className="ask-drop__hint" id={imageHintId}>
                  {checkingImage ? t('form.imageChecking') : t('form.imageHint')}
                </span>
              </label>
            </div>
          )}
          {fieldError('image')}
        </div>
  );

  return (
    <form ref={formRef} className="ask" onSubmit={submit} noValidate aria-describedby={guidanceId}>
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
            aria-describedby={describe(errors.poemTitle && errId('poemTitle'))}
            disabled={busy}
            autoComplete="off"
          />
          {fieldError('poemTitle')}
        </div>
      )}

      {f.keywords && (
        <fieldset className="ask-field ask-field--group" aria-describedby={kwHintId}>
          <legend className="ask-field__label">
            {t('form.keywords')} <Need required={f.keywords.min > 0} />
          </legend>
          <p className="ask-field__hint" id={kwHintId}>
            {f.keywords.min > 0 ? t('form.keywordsHint', { count: f.keywords.min }) : t('form.keywordsHintOptional')}
          </p>
          <div className="ask-keywords">
            {draft.keywords.map((k, i) => {
              const kwErr = keywordErrors[i] ?? null;
              const invalid = !!kwErr || (!!errors.keywords && i === 0);
              return (
                <div className="ask-keyword" key={i}>
                  <label className="visually-hidden" htmlFor={`${id}-kw-${i}`}>
                    {t('form.keywordN', { n: i + 1 })}
                  </label>
                  <span className="ask-keyword__n" aria-hidden="true">
                    {i + 1}
                  </span>
                  <input
                    id={`${id}-kw-${i}`}
                    className="ask-input"
                    type="text"
                    value={k}
                    placeholder={t('form.keywordPlaceholder')}
                    onChange={(e) => {
                      const keywords = [...draft.keywords];
                      keywords[i] = e.target.value;
                      set('keywords', keywords);
                      setDropped(0);
                    }}
                    onPaste={(e) => onKeywordPaste(i, e)}
                    aria-invalid={invalid}
                    aria-required={i === 0 && (f.keywords?.min ?? 0) > 0}
                    aria-describedby={describe(kwErr && `${errId('kw')}-${i}`, i === 0 && errors.keywords && errId('keywords'))}
                    disabled={busy}
                    autoComplete="off"
                    data-testid={`keyword-${i + 1}`}
                  />
                </div>
              );
            })}
          </div>
          {keywordErrors.map((msg, i) =>
            msg ? (
              <p className="ask-field__error" id={`${errId('kw')}-${i}`} role="alert" key={i}>
                {msg}
              </p>
            ) : null,
          )}
          {fieldError('keywords')}
          {dropped > 0 && (
            <p className="ask-field__note" role="status">
              {t('form.keywordsDropped', { count: dropped })}
            </p>
          )}
        </fieldset>
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
                aria-describedby={describe(errors.genre && errId('genre'))}
                disabled={busy}
                autoComplete="off"
              />
              {fieldError('genre')}
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
                <option value="ko">{t('form.languageKo')}</option>
                <option value="en">{t('form.languageEn')}</option>
              </select>
              {fieldError('language')}
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
          aria-describedby={describe(errors.category && errId('category'))}
        >
          <legend className="ask-field__label">
            {t('form.category')} <Need required={f.category === 'required'} />
          </legend>
          <div className="ask-choices">
            {(['drama', 'film'] as const).map((c) => (
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
                <span>{c === 'drama' ? t('form.categoryDrama') : t('form.categoryFilm')}</span>
              </label>
            ))}
          </div>
          {fieldError('category')}
        </fieldset>
      )}

      {tool.image === 'required' && imageField}

      <div className="ask-field">
        <div className="ask-field__top">
          <div className="ask-field__labelrow">
            <label className="ask-field__label" htmlFor={`${id}-text`}>
              {textRequired ? t('form.textRequired') : t('form.textOptional')}
            </label>
            <Need required={textRequired} />
          </div>
          <span className={`ask-counter${textOver ? ' ask-counter--over' : ''}`} id={counterId} data-testid="text-counter">
            {t('form.counter', { used: nf.format(textLength), max: nf.format(max) })}
          </span>
        </div>
        <textarea
          id={`${id}-text`}
          className="ask-input ask-textarea"
          value={draft.text}
          rows={textRequired ? 6 : 3}
          placeholder={textRequired ? t('form.textPlaceholderRequired') : t('form.textPlaceholderOptional')}
          onChange={(e) => set('text', e.target.value)}
          aria-required={textRequired}
          aria-invalid={!!errors.text}
          aria-describedby={describe(counterId, errors.text && errId('text'))}
          disabled={busy}
        />
        {fieldError('text')}
      </div>

      {tool.image === 'optional' && imageField}

      {serverError && (
        <p className="ask__error" role="alert" data-testid="form-error">
          {serverError}
        </p>
      )}

      <div className="ask__actions">
        <button
          type="submit"
          className="btn btn--primary btn--lg"
          disabled={busy || blocking}
          data-testid="submit"
        >
          {submitting ? t('form.submitting') : busy ? t('form.answering') : t('form.submit')}
        </button>
      </div>
    </form>
  );
}

function Need({ required }: { required: boolean }): ReactNode {
  const { t } = useTranslation('battle');
  // Visual only: the controls carry aria-required, so the accessible name stays just the label.
  return (
    <span className={`ask-need${required ? ' ask-need--required' : ''}`} aria-hidden="true">
      {required ? t('form.required') : t('form.optional')}
    </span>
  );
}

function formatBytes(bytes: number, lang: string): string {
  const mb = bytes / (1024 * 1024);
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: mb < 10 ? 1 : 0 });
  return mb >= 1 ? `${nf.format(mb)} MB` : `${nf.format(Math.max(1, Math.round(bytes / 1024)))} KB`;
}
