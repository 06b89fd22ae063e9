import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Route, Routes } from 'react-router-dom';
import { signOutConsole, restoreAdminSession } from '../../api/admin-sign-in.ts';
import { useAdminSession } from '../../api/admin-session.ts';
import { AdminSignIn } from './AdminSignIn.tsx';
import AuditScreen from './Audit/AuditScreen.tsx';
import BudgetsScreen from './Budgets/BudgetsScreen.tsx';
import ModelsScreen from './Models/ModelsScreen.tsx';
import ModerationScreen from './Moderation/ModerationScreen.tsx';
import NowScreen from './Now/NowScreen.tsx';
import './admin-i18n.ts';
import './Admin.css';

const SCREENS = [
  { to: '/admin', key: 'now', end: true },
  { to: '/admin/models', key: 'models', end: false },
  { to: '/admin/moderation', key: 'moderation', end: false },
  { to: '/admin/budgets', key: 'budgets', end: false },
  { to: '/admin/audit', key: 'audit', end: false },
] as const;

/** `/admin/*`: the operators' console, behind its own sign-in (an operator credential, tried on the API first). */
export default function AdminConsole() {
  const { t } = useTranslation('admin');
  const status = useAdminSession((s) => s.status);

  useEffect(() => {
    void restoreAdminSession();
  }, []);

  if (status === 'restoring') {
    return (
      <div className="adm container" data-testid="admin-restoring">
        <p className="adm-muted" role="status">
          {t('signIn.checking')}
        </p>
      </div>
    );
  }
  if (status === 'signed-out') return <AdminSignIn />;
  return <ConsoleShell />;
}

function ConsoleShell() {
  const { t } = useTranslation('admin');
  const credential = useAdminSession((s) => s.credential);
  const queryClient = useQueryClient();
  const who = credential?.kind === 'account' ? credential.email : t('shell.tokenOperator');

  return (
    <div className="adm container" data-testid="admin-console">
      <div className="adm-bar">
        <p className="adm-bar__brand">{t('shell.brand')}</p>
        <p className="adm-bar__who">
          <span className="adm-muted">{t('shell.signedInAs')}</span> <strong data-testid="admin-who">{who}</strong>
        </p>
        <button type="button" className="btn btn--sm" onClick={() => void signOutConsole(queryClient)} data-testid="admin-sign-out">
          {t('shell.signOut')}
        </button>
      </div>
      <nav className="adm-nav" aria-label={t('shell.nav')}>
        <ul>
          {SCREENS.map((s) => (
            <li key={s.key}>
              <NavLink to={s.to} end={s.end} className="adm-nav__link" data-testid={`admin-nav-${s.key}`}>
                {t(`${s.key}.nav`)}
              </NavLink>
            </li>
          ))}
          <li>
            {/* The gateway's queue board, not a page of this app: a full page load. */}
            <a href="/admin/queues" className="adm-nav__link">
              {t('shell.queues')}
            </a>
          </li>
        </ul>
      </nav>
      {/* One chunk for the whole console: screens split further would split the visitors' shared chunks too. */}
      <Routes>
        <Route index element={<NowScreen />} />
        <Route path="models" element={<ModelsScreen />} />
        <Route path="moderation" element={<ModerationScreen />} />
        <Route path="budgets" element={<BudgetsScreen />} />
        <Route path="audit" element={<AuditScreen />} />
        <Route path="*" element={<p role="alert">{t('shell.noSuchScreen')}</p>} />
      </Routes>
    </div>
  );
}
