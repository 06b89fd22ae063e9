import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { useProfile } from '../../auth/use-profile.ts';
import { useAuth, useSignedIn } from '../../state/auth.ts';
import { useAuthDialog } from '../../state/auth-dialog.ts';
import type { AuthMode } from '../Auth/AuthDialog.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { DuetMark, GiftIcon, MenuIcon, PodiumIcon } from './Icons.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { MobileDrawer } from './MobileDrawer.tsx';
import { SignupBenefitDialog } from './SignupBenefitDialog.tsx';
import './Header.css';

// The dialog, the account flows and the Firebase SDK load only when a visitor opens it.
const AuthDialog = lazy(() => import('../Auth/AuthDialog.tsx'));

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

/** The leaderboard, for everyone: a podium with its name (the name hidden on small screens). */
function LeaderboardLink() {
  const { t } = useTranslation('common');
  return (
    <NavLink to="/leaderboard" className="header__nav-link" data-testid="header-leaderboard-link">
      <PodiumIcon />
      <span className="header__nav-text">{t('header.leaderboard')}</span>
    </NavLink>
  );
}

/** Login, Sign Up and the benefit button: the same set in the bar and in the drawer. */
function GuestActions({ onBenefit, onAuth }: { onBenefit: () => void; onAuth: (mode: AuthMode) => void }) {
  const { t } = useTranslation('common');
  return (
    <>
      <button type="button" className="btn benefit-btn" onClick={onBenefit} data-action="signup-benefit">
        <GiftIcon />
        {t('header.signupBenefit')}
      </button>
      <button type="button" className="btn btn--ghost header__login" onClick={() => onAuth('login')} data-action="login">
        {t('header.login')}
      </button>
      <button type="button" className="btn btn--primary" onClick={() => onAuth('signup')} data-action="signup">
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
  const [authMode, setAuthMode] = useState<AuthMode>('login');
  const [authOpen, setAuthOpen] = useState(false);
  // Once loaded the dialog stays mounted, so closing it hands focus back the native way.
  const [authLoaded, setAuthLoaded] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  useProfile();
  // A page asked for the dialog (a visitor offered sign-up): open it here, where it lives.
  const requested = useAuthDialog((s) => s.requested);
  useEffect(() => {
    if (!requested) return;
    useAuthDialog.getState().clear();
    openAuth(requested);
  }, [requested]);

  // Growing past the breakpoint with the drawer open: the bar shows the controls again.
  useEffect(() => {
    const mq = window.matchMedia(DRAWER_QUERY);
    const onChange = () => {
      if (!mq.matches) setDrawerOpen(false);
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const openAuth = (mode: AuthMode) => {
    setDrawerOpen(false);
    setAuthMode(mode);
    setAuthLoaded(true);
    setAuthOpen(true);
  };
  const openBenefit = () => {
    setDrawerOpen(false);
    setBenefitOpen(true);
  };
  const logout = async () => {
    if (loggingOut) return;
    setLoggingOut(true);
    try {
      const actions = await import('../../auth/actions.ts');
      await actions.logout();
    } catch {
      // Even when the account code cannot load, nobody stays logged in here.
      useAuth.getState().clear();
    }
    setLoggingOut(false);
    void navigate('/');
  };

  return (
    <header className={`header${signedIn ? ' header--signed-in' : ''}`} data-testid="site-header">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <div className="container header__bar">
        <div className="header__start">
          <Logo />
          <nav aria-label={t('header.nav')}>
            <LeaderboardLink />
          </nav>
        </div>
        {signedIn ? (
          <div className="header__user">
            <LanguageSwitch className="header__user-lang" />
            <AccountMenu />
            <button
              type="button"
              className="btn btn--sm"
              onClick={() => void logout()}
              aria-disabled={loggingOut}
              aria-busy={loggingOut}
              data-action="logout"
            >
              {t('header.logout')}
            </button>
          </div>
        ) : (
          <>
            <div className="header__actions">
              <LanguageSwitch />
              <GuestActions onBenefit={openBenefit} onAuth={openAuth} />
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
              <GuestActions onBenefit={openBenefit} onAuth={openAuth} />
            </MobileDrawer>
            <SignupBenefitDialog open={benefitOpen} onClose={() => setBenefitOpen(false)} />
            {authLoaded && (
              <Suspense fallback={null}>
                <AuthDialog open={authOpen} mode={authMode} onModeChange={setAuthMode} onClose={() => setAuthOpen(false)} />
              </Suspense>
            )}
          </>
        )}
      </div>
    </header>
  );
}
