import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth, useSignedIn } from '../../state/auth.ts';
import { toast } from '../../state/toasts.ts';
import { DuetMark, GiftIcon, MenuIcon } from './Icons.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { MobileDrawer } from './MobileDrawer.tsx';
import { SignupBenefitDialog } from './SignupBenefitDialog.tsx';
import './Header.css';

/** Below this width the logged-out controls live in a side drawer. */
const DRAWER_QUERY = '(max-width: 767.98px)';

const DRAWER_ID = 'header-drawer';

function Logo() {
  const { t } = useTranslation('common');
  return (
    <Link to="/" className="header__logo" aria-label={t('header.home')} data-testid="header-logo">
      <DuetMark size={34} />
      <span className="header__wordmark" aria-hidden="true">
        {t('brand')}
      </span>
    </Link>
  );
}

/** The signed-in visitor's picture, or their initial when there is none or it fails to load. */
function Avatar() {
  const { t } = useTranslation('common');
  const image = useAuth((s) => s.oauth.userImage);
  const name = useAuth((s) => s.oauth.displayName || s.oauth.email);
  const [failed, setFailed] = useState<string | null>(null);
  const initial = (name.trim()[0] ?? '?').toUpperCase();

  if (image && failed !== image) {
    return (
      <img
        className="avatar"
        src={image}
        alt={t('header.profile')}
        width={36}
        height={36}
        referrerPolicy="no-referrer"
        onError={() => setFailed(image)}
        data-testid="header-avatar"
      />
    );
  }
  return (
    <span className="avatar avatar--fallback" role="img" aria-label={t('header.profile')} data-testid="header-avatar">
      <span aria-hidden="true">{initial}</span>
    </span>
  );
}

/** Login, Sign Up and the benefit button: the same set in the bar and in the drawer. */
function GuestActions({ onBenefit, onAuth }: { onBenefit: () => void; onAuth: () => void }) {
  const { t } = useTranslation('common');
  return (
    <>
      <button type="button" className="btn benefit-btn" onClick={onBenefit} data-action="signup-benefit">
        <GiftIcon />
        {t('header.signupBenefit')}
      </button>
      <button type="button" className="btn btn--ghost header__login" onClick={onAuth} data-action="login">
        {t('header.login')}
      </button>
      <button type="button" className="btn btn--primary" onClick={onAuth} data-action="signup">
        {t('header.signup')}
      </button>
    </>
  );
}

export function Header() {
  const { t } = useTranslation('common');
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const [benefitOpen, setBenefitOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);

  // Growing past the breakpoint with the drawer open: the bar shows the controls again.
  useEffect(() => {
    const mq = window.matchMedia(DRAWER_QUERY);
    const onChange = () => {
      if (!mq.matches) setDrawerOpen(false);
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const comingSoon = () => {
    setDrawerOpen(false);
    toast.info(t('auth.comingSoon'));
  };
  const openBenefit = () => {
    setDrawerOpen(false);
    setBenefitOpen(true);
  };
  const logout = () => {
    useAuth.getState().clear();
    navigate('/');
  };

  return (
    <header className="header" data-testid="site-header">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <div className="container header__bar">
        <Logo />
        {signedIn ? (
          <div className="header__user">
            <Avatar />
            <button type="button" className="btn btn--sm" onClick={logout} data-action="logout">
              {t('header.logout')}
            </button>
          </div>
        ) : (
          <>
            <div className="header__actions">
              <LanguageSwitch />
              <GuestActions onBenefit={openBenefit} onAuth={comingSoon} />
            </div>
            <button
              type="button"
              className="icon-btn header__menu-btn"
              aria-expanded={drawerOpen}
              aria-controls={DRAWER_ID}
              aria-label={t('header.openMenu')}
              onClick={() => setDrawerOpen(true)}
              data-testid="header-menu-button"
            >
              <MenuIcon />
            </button>
            <MobileDrawer id={DRAWER_ID} open={drawerOpen} onClose={() => setDrawerOpen(false)}>
              <LanguageSwitch className="lang-switch--block" />
              <GuestActions onBenefit={openBenefit} onAuth={comingSoon} />
            </MobileDrawer>
            <SignupBenefitDialog open={benefitOpen} onClose={() => setBenefitOpen(false)} />
          </>
        )}
      </div>
    </header>
  );
}
