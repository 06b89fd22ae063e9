import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSisterLinks } from '../../api/use-meta.ts';
import { DrawingIcon, ExternalIcon, WritingIcon } from '../../components/Header/Icons.tsx';
import { EXTERNAL_LINK } from '../../components/Header/external-link.ts';
import './IntroPage.css';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

const FAQ_ITEMS = [1, 2, 3, 4] as const;

interface FeatureProps {
  section: 'section1' | 'section2';
  image: string;
  reverse?: boolean;
}

/** A text block beside a gently animated illustration. */
function Feature({ section, image, reverse = false }: FeatureProps) {
  const { t } = useTranslation('common');
  const headingId = useId();
  return (
    <section className={`intro-feature${reverse ? ' intro-feature--reverse' : ''}`} aria-labelledby={headingId} data-testid={`intro-${section}`}>
      <div className="container intro-feature__inner">
        <div className="intro-feature__text">
          <p className="intro-eyebrow">{t(`intro.${section}.eyebrow`)}</p>
          <h2 id={headingId} className="intro-h2">
            {t(`intro.${section}.title`)}
          </h2>
          <p className="intro-feature__desc">{t(`intro.${section}.description1`)}</p>
          <p className="intro-feature__desc">{t(`intro.${section}.description2`)}</p>
        </div>
        <div className="intro-feature__art">
          <img
            className="intro-float"
            src={image}
            alt={t(`intro.${section}.imageAlt`)}
            width={560}
            height={420}
            decoding="async"
          />
        </div>
      </div>
    </section>
  );
}

function Benefits() {
  const { t } = useTranslation('common');
  const links = useSisterLinks();
  const cards = [
    { key: 'writing', href: links.writing, Icon: WritingIcon },
    { key: 'drawing', href: links.drawing, Icon: DrawingIcon },
  ] as const;
  return (
    <section className="intro-benefit" aria-labelledby="intro-benefit-title" data-testid="intro-benefit">
      <div className="container">
        <div className="intro-center">
          <p className="intro-eyebrow">{t('intro.benefit.eyebrow')}</p>
          <h2 id="intro-benefit-title" className="intro-h2">
            {t('intro.benefit.title')}
          </h2>
          <p className="intro-lead">{t('intro.benefit.lead')}</p>
        </div>
        <ul className="intro-benefit__cards">
          {cards.map(({ key, href, Icon }) => {
            const name = t(`benefit.${key}.name`);
            return (
              <li key={key} className={`intro-benefit__card intro-benefit__card--${key}`}>
                <Icon size={64} />
                <p className="intro-benefit__gift">{t(`benefit.${key}.gift`)}</p>
                <h3 className="intro-benefit__name">{name}</h3>
                <p className="intro-benefit__desc">{t(`benefit.${key}.description`)}</p>
                {href && (
                  <a
                    className="btn btn--primary intro-benefit__go"
                    href={href}
                    {...EXTERNAL_LINK}
                    aria-label={t('intro.benefit.goToLabel', { name })}
                    data-testid={`intro-go-${key}`}
                  >
                    {t('intro.benefit.goTo')}
                    <span className="visually-hidden"> {name}</span>
                    <ExternalIcon size={15} />
                  </a>
                )}
              </li>
            );
          })}
        </ul>
        <div className="intro-benefit__notes">
          <p>{t('intro.benefit.note1')}</p>
          <p>{t('intro.benefit.note2')}</p>
        </div>
      </div>
    </section>
  );
}

/** Four questions; one answer open at a time, and the open one closes on a second click. */
function Faq() {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState<number | null>(null);
  const baseId = useId();
  return (
    <section className="intro-faq" aria-labelledby="intro-faq-title">
      <div className="container intro-faq__inner">
        <h2 id="intro-faq-title" className="intro-h2 intro-center">
          {t('intro.faq.title')}
        </h2>
        <div className="faq" data-testid="faq">
          {FAQ_ITEMS.map((n) => {
            const expanded = open === n;
            const buttonId = `${baseId}-q${n}`;
            const panelId = `${baseId}-a${n}`;
            return (
              <div key={n} className={`faq__item${expanded ? ' faq__item--open' : ''}`} data-testid="faq-item">
                <h3 className="faq__q">
                  <button
                    type="button"
                    id={buttonId}
                    className="faq__button"
                    aria-expanded={expanded}
                    aria-controls={panelId}
                    onClick={() => setOpen(expanded ? null : n)}
                  >
                    <span>{t(`intro.faq.q${n}`)}</span>
                    <svg className="faq__chevron" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                      <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                  </button>
                </h3>
                <div id={panelId} role="region" aria-labelledby={buttonId} className="faq__a" hidden={!expanded}>
                  <p>{t(`intro.faq.a${n}`)}</p>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

/** The introduction page at /main. */
export default function IntroPage() {
  const { t } = useTranslation('common');

  useDocumentTitle(t('intro.documentTitle'));

  return (
    <div className="intro">
      <section className="intro-hero" aria-labelledby="intro-title" data-testid="intro-hero">
        <div className="container intro-hero__inner">
          <div className="intro-hero__text">
            <p className="intro-eyebrow intro-eyebrow--pill">{t('intro.hero.eyebrow')}</p>
            <h1 id="intro-title" className="intro-hero__title">
              {t('intro.hero.title')}
            </h1>
            <p className="intro-hero__desc">{t('intro.hero.description1')}</p>
            <p className="intro-hero__desc">{t('intro.hero.description2')}</p>
            <Link to="/" className="btn btn--primary intro-hero__cta" data-testid="intro-explore">
              {t('intro.hero.cta')}
              <span aria-hidden="true">→</span>
            </Link>
          </div>
          <div className="intro-hero__art">
            <img className="intro-float" src="/intro/hero.svg" alt={t('intro.hero.imageAlt')} width={520} height={440} />
          </div>
        </div>
      </section>

      <Feature section="section1" image="/intro/section-ask.svg" />
      <Feature section="section2" image="/intro/section-vote.svg" reverse />
      <Benefits />

      <section className="intro-showcase" aria-labelledby="intro-showcase-title">
        <div className="container">
          <h2 id="intro-showcase-title" className="intro-h2 intro-center">
            {t('intro.showcase.title')}
          </h2>
          <img
            className="intro-showcase__img"
            src="/intro/showcase.svg"
            alt={t('intro.showcase.imageAlt')}
            width={1200}
            height={640}
            decoding="async"
          />
        </div>
      </section>

      <Faq />
    </div>
  );
}
