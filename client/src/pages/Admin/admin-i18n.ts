import i18n from 'i18next';
import en from '../../i18n/locales/en/admin.json';
import ko from '../../i18n/locales/ko/admin.json';

// The console's namespace travels with the console's chunk: visitors' pages never load it.
for (const [lang, bundle] of [['en', en], ['ko', ko]] as const) {
  if (!i18n.hasResourceBundle(lang, 'admin')) i18n.addResourceBundle(lang, 'admin', bundle);
}
