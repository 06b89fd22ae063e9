import { LANGUAGES } from '@duet/contracts/limits';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../../i18n/index.ts';

/** Two buttons, 한국어 and English; the active one is pressed. */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  // useTranslation re-renders this component whenever the language changes.
  const { t } = useTranslation('common');
  const labelId = useId();
  const active = currentLanguage();
  return (
    <div className={`lang-switch ${className}`} role="group" aria-labelledby={labelId} data-testid="language-switch">
      <span id={labelId} className="visually-hidden">
        {t('language.label')}
      </span>
      {LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          lang={lang}
          className="lang-switch__btn"
          aria-pressed={active === lang}
          data-lang={lang}
          onClick={() => changeLanguage(lang)}
        >
          {t(`language.${lang}`)}
        </button>
      ))}
    </div>
  );
}
