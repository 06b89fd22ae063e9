import { FALLBACK_LANGUAGE, LANGUAGES, PRODUCT } from '@duet/contracts/limits';
import type { Language } from '@duet/contracts/limits';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAuth from './locales/en/auth.json';
import enBattle from './locales/en/battle.json';
import enCommon from './locales/en/common.json';
import enContents from './locales/en/contents.json';
import enLeaderboard from './locales/en/leaderboard.json';
import koAuth from './locales/ko/auth.json';
import koBattle from './locales/ko/battle.json';
import koCommon from './locales/ko/common.json';
import koContents from './locales/ko/contents.json';
import koLeaderboard from './locales/ko/leaderboard.json';

/** Where the visitor's language choice is kept (the specification's `{product}_language`). */
export const LANGUAGE_KEY = `${PRODUCT}_language`;

const isLanguage = (v: unknown): v is Language => (LANGUAGES as readonly unknown[]).includes(v);

/**
 * The stored choice; else Korean when the browser's language contains "ko" (and that is
 * saved), else English.
 */
export function initialLanguage(): Language {
  if (typeof window === 'undefined') return FALLBACK_LANGUAGE;
  const stored = window.localStorage.getItem(LANGUAGE_KEY);
  if (isLanguage(stored)) return stored;
  if (window.navigator.language.toLowerCase().includes('ko')) {
    window.localStorage.setItem(LANGUAGE_KEY, 'ko');
    return 'ko';
  }
  return 'en';
}

export function changeLanguage(lang: Language): void {
  window.localStorage.setItem(LANGUAGE_KEY, lang);
  void i18n.changeLanguage(lang);
}

export const resources = {
  ko: { common: koCommon, battle: koBattle, contents: koContents, leaderboard: koLeaderboard, auth: koAuth },
  en: { common: enCommon, battle: enBattle, contents: enContents, leaderboard: enLeaderboard, auth: enAuth },
} as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ['common', 'battle', 'contents', 'leaderboard', 'auth'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});
document.documentElement.lang = i18n.language;

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : FALLBACK_LANGUAGE);

export default i18n;
