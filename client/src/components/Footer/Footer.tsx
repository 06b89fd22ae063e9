import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSiteContact, useSisterLinks } from '../../api/use-meta.ts';
import { DuetMark, ExternalIcon } from '../Header/Icons.tsx';
import { EXTERNAL_LINK } from '../Header/external-link.ts';
import './Footer.css';

const SISTER_SERVICES = ['writing', 'drawing'] as const;

/**
 * Support hours, links and company registration details, on every route. The sister sites, the
 * support e-mail and phone and the company details are the deployment's settings: only what is
 * configured is shown.
 */
export function Footer() {
  const { t } = useTranslation('common');
  const links = useSisterLinks();
  const { email, phone, company } = useSiteContact();
  const related = SISTER_SERVICES.flatMap((key) => (links[key] ? [{ key, href: links[key] }] : []));
  const details = [
    { field: 'address', value: company.address },
    { field: 'representative', value: company.representative },
    { field: 'businessNumber', value: company.businessNumber },
    { field: 'ecommerceNumber', value: company.ecommerceNumber },
    { field: 'phone', value: phone },
  ].filter((d): d is { field: string; value: string } => Boolean(d.value));
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
            {email && (
              <li data-testid="footer-email">
                {t('footer.emailLabel')}{' '}
                <a href={`mailto:${email}`} className="footer__link">
                  {email}
                </a>
              </li>
            )}
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

        {related.length > 0 && (
          <nav className="footer__col" aria-labelledby="footer-related" data-testid="footer-related">
            <h2 id="footer-related" className="footer__heading">
              {t('footer.relatedTitle')}
            </h2>
            <ul className="footer__list">
              {related.map(({ key, href }) => (
                <li key={key}>
                  <a href={href} className="footer__link" {...EXTERNAL_LINK}>
                    {t(`footer.${key}`)}
                    <ExternalIcon size={13} />
                    <span className="visually-hidden"> {t('benefit.opensInNewTab')}</span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>

      <div className="footer__legal">
        <div className="container">
          {(company.name || details.length > 0) && (
            <section aria-label={t('footer.companyTitle')} data-testid="footer-company">
              {company.name && <p className="footer__company">{company.name}</p>}
              {details.length > 0 && (
                <dl className="footer__details">
                  {details.map(({ field, value }) => (
                    <div key={field} className="footer__detail">
                      <dt>{t(`footer.company.${field}Label`)}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </section>
          )}
          <p className="footer__copyright">{t('footer.copyright', { year: new Date().getFullYear(), owner: company.name ?? t('brand') })}</p>
        </div>
      </div>
    </footer>
  );
}
