import { useTranslation } from 'react-i18next';

/** "Required" or "Optional" next to a field's label. */
export function Need({ required }: { required: boolean }) {
  const { t } = useTranslation('battle');
  // Visual only: the controls carry aria-required, so the accessible name stays just the label.
  return (
    <span className={`ask-need${required ? ' ask-need--required' : ''}`} aria-hidden="true">
      {required ? t('form.required') : t('form.optional')}
    </span>
  );
}
