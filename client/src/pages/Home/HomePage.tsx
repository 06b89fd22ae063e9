import { TOOLS } from '@duet/contracts/catalog';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ToolCard } from '../../components/ToolCard/ToolCard.tsx';
import './HomePage.css';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

/** The landing screen: a short hero line, then the 13 activities in catalog order. */
export default function HomePage() {
  const { t } = useTranslation('common');

  useDocumentTitle(t('home.documentTitle'));

  return (
    <div className="home">
      <section className="home__hero" aria-labelledby="home-title">
        <div className="container home__hero-inner">
          <p className="home__eyebrow">{t('home.eyebrow')}</p>
          <h1 id="home-title" className="home__title">
            {t('home.title')}
          </h1>
          <p className="home__lead">{t('home.lead')}</p>
          <div className="home__links">
            <Link to="/main" className="home__more">
              {t('home.howItWorks')}
              <span aria-hidden="true">→</span>
            </Link>
            <Link to="/leaderboard" className="home__more" data-testid="home-leaderboard-link">
              {t('home.leaderboard')}
              <span aria-hidden="true">→</span>
            </Link>
          </div>
        </div>
      </section>
      <div className="container">
        <ul className="home__grid" aria-label={t('home.gridLabel')} data-testid="tool-grid">
          {TOOLS.map((tool) => (
            <li key={tool.slug}>
              <ToolCard tool={tool} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
