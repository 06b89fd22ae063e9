import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DuetMark, ExternalIcon } from '../Header/Icons.tsx';
import { EXTERNAL_LINK, SISTER_SITES } from '../Header/sister-sites.ts';
import './Footer.css';

const COMPANY_FIELDS = ['address', 'representative', 'businessNumber', 'ecommerceNumber', 'phone'] as const;

/** Support hours, links and company registration details, on every route. */
export function Footer() {
  const { t } = useTranslation('common');
  const email = t('footer.email');
  return (
    <footer className="footer" data-testid="site-footer">
      <div className="container footer__grid">
        <div className="footer__brand">
          <Link to="/" className="footer__logo" aria-label={t('header.home')}>
            <DuetMark size={30} />
            <span aria-hidden="true">{t('brand')}</span>
          </Link>
          <p className="footer__tagline">{t('footer.tagline')}</p>
        </div>

        <section className="footer__col footer__col--support" aria-labelledby="footer-support">
          <h2 id="footer-support" className="footer__heading">
            {t('footer.supportTitle')}
          </h2>
          <ul className="footer__list">
            <li>{t('footer.hours')}</li>
            <li>{t('footer.lunch')}</li>
            <li>{t('footer.holidays')}</li>
            <li>
              {t('footer.emailLabel')}{' '}
              <a href={`mailto:${email}`} className="footer__link">
                {email}
              </a>
            </li>
          </ul>
        </section>

        <nav className="footer__col" aria-labelledby="footer-links">
          <h2 id="footer-links" className="footer__heading">
            {t('footer.linksTitle')}
          </h2>
          <ul className="footer__list">
            <li>
              <Link to="/" className="footer__link">
                {t('footer.mainSite')}
              </Link>
            </li>
            <li>
              <Link to="/main" className="footer__link" data-testid="footer-intro-link">
                {t('footer.intro')}
              </Link>
            </li>
          </ul>
        </nav>

        <nav className="footer__col" aria-labelledby="footer-related">
          <h2 id="footer-related" className="footer__heading">
            {t('footer.relatedTitle')}
          </h2>
          <ul className="footer__list">
            {(['writing', 'drawing'] as const).map((key) => (
              <li key={key}>
                <a href={SISTER_SITES[key]} className="footer__link" {...EXTERNAL_LINK}>
                  {t(`footer.${key}`)}
                  <ExternalIcon size={13} />
                  <span className="visually-hidden"> {t('benefit.opensInNewTab')}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <div className="footer__legal">
        <div className="container">
          <h2 className="visually-hidden">{t('footer.companyTitle')}</h2>
          <p className="footer__company">{t('footer.company.name')}</p>
          <dl className="footer__details">
            {COMPANY_FIELDS.map((field) => (
              <div key={field} className="footer__detail">
                <dt>{t(`footer.company.${field}Label`)}</dt>
                <dd>{t(`footer.company.${field}`)}</dd>
              </div>
            ))}
          </dl>
          <p className="footer__copyright">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        </div>
      </div>
    </footer>
  );
}
