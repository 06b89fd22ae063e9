import { LIMITS } from '@duet/contracts/limits';
import { useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from './FieldError.tsx';
import { formatBytes } from './format-bytes.ts';
import { describedBy, fieldErrorId } from './form-ids.ts';
import { Need } from './Need.tsx';
import type { PickedImage } from './use-picked-image.ts';

interface ImageFieldProps {
  /** The form's id prefix. */
  formId: string;
  required: boolean;
  image: PickedImage;
  error: string | undefined;
  busy: boolean;
}

/** The question's image: a drop zone with a file picker, then a preview with a remove button. */
export function ImageField({ formId, required, image, error, busy }: ImageFieldProps) {
  const { t, i18n } = useTranslation('battle');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const inputId = `${formId}-image`;
  const labelId = `${formId}-image-label`;
  const chooseId = `${formId}-image-choose`;
  const hintId = `${formId}-image-hint`;
  const errorId = fieldErrorId(formId, 'image');

  function choose(picked: File | undefined) {
    // The same file picked again after a refusal is checked again.
    if (fileInput.current) fileInput.current.value = '';
    void image.pick(picked);
  }

  function remove() {
    image.remove();
    requestAnimationFrame(() => fileInput.current?.focus());
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    choose(e.dataTransfer.files[0]);
  }

  return (
    <div className="ask-field">
      <div className="ask-field__labelrow">
        <span className="ask-field__label" id={labelId}>
          {t('form.image')}
        </span>
        <Need required={required} />
      </div>
      {image.file && image.previewUrl ? (
        <div className="ask-preview">
          <img src={image.previewUrl} alt={t('form.imagePreview')} className="ask-preview__img" />
          <div className="ask-preview__meta">
            <span className="ask-preview__name">{image.file.name}</span>
            <span className="ask-preview__size">{formatBytes(image.file.size, i18n.language)}</span>
            <button type="button" className="btn btn--sm btn--danger" onClick={remove} disabled={busy}>
              {t('form.imageRemove')}
            </button>
          </div>
        </div>
      ) : (
        <div
          className={`ask-drop${dragging ? ' ask-drop--over' : ''}${error ? ' ask-drop--invalid' : ''}`}
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
            id={inputId}
            className="visually-hidden ask-drop__input"
            type="file"
            accept={LIMITS.imageMimeTypes.join(',')}
            onChange={(e) => choose(e.target.files?.[0])}
            aria-labelledby={`${labelId} ${chooseId}`}
            aria-describedby={describedBy(hintId, error && errorId)}
            aria-invalid={!!error}
            aria-required={required}
            disabled={busy}
            data-testid="image-input"
          />
          <label htmlFor={inputId} className="ask-drop__label">
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
                  {t('form.imageDrop')} <span className="ask-drop__choose" id={chooseId}>{t('form.imageChoose')}</span>
                </>
              )}
            </span>
            <span className="ask-drop__hint" id={hintId}>
              {image.checking ? t('form.imageChecking') : t('form.imageHint')}
            </span>
          </label>
        </div>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
