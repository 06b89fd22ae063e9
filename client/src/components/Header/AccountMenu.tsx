import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../state/auth.ts';
import { useDuetStore } from '../../state/store.ts';
import { DrawingIcon, ExternalIcon, GiftIcon, WritingIcon } from './Icons.tsx';
import { useSisterLinks } from '../../api/use-meta.ts';
import { EXTERNAL_LINK } from './external-link.ts';

// The dialog and the account code it calls load only when a visitor asks to delete their account.
const DeleteAccountDialog = lazy(() => import('../Auth/DeleteAccountDialog.tsx'));

/** The signed-in visitor's picture (the profile's, else the provider's), or their initial. */
function Avatar({ picture, name }: { picture: string; name: string }) {
  const { t } = useTranslation('common');
  const [failed, setFailed] = useState<string | null>(null);
  const initial = (name.trim()[0] ?? '?').toUpperCase();

  if (picture && failed !== picture) {
    return (
      <img
        className="avatar"
        src={picture}
        alt={t('header.profile')}
        width={36}
        height={36}
        referrerPolicy="no-referrer"
        onError={() => setFailed(picture)}
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

/**
 * The avatar as a disclosure button: it opens a small panel with who is signed in and, for an
 * account created through Duet, its signup gifts. Escape or a click elsewhere closes it.
 */
export function AccountMenu() {
  const { t } = useTranslation('auth');
  const oauth = useAuth((s) => s.oauth);
  const user = useDuetStore((s) => s.profile.user);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const picture = user?.picture || oauth.userImage;
  const email = user?.email || oauth.email;
  const name = user?.displayName || oauth.displayName || email;
  const benefits = user?.benefits ?? null;
  const links = useSisterLinks();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="account" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account__button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('menu.open')}
        onClick={() => setOpen((v) => !v)}
        data-testid="account-menu-button"
      >
        <Avatar picture={picture} name={name} />
        {benefits && (
          <span className="account__badge" aria-hidden="true">
            <GiftIcon size={12} />
          </span>
        )}
      </button>
      <div id={panelId} className="account__panel" hidden={!open} data-testid="account-menu">
        <p className="account__who">
          <span className="account__label">{t('menu.signedInAs')}</span>
          {name && name !== email && <strong className="account__name">{name}</strong>}
          {email && <span className="account__email">{email}</span>}
        </p>
        {benefits ? (
          <section className="account__gifts" aria-labelledby={`${panelId}-gifts`} data-testid="account-benefits">
            <h2 id={`${panelId}-gifts`} className="account__gifts-title">
              <GiftIcon size={16} />
              {t('menu.giftsTitle')}
            </h2>
            <ul>
              <li className="account__gift">
                <WritingIcon size={36} />
                <span className="account__gift-text" data-testid="benefit-writing">
                  {t('menu.writingGift', { months: benefits.writingMonths })}
                </span>
                {links.writing && (
                  <a
                    className="account__gift-link"
                    href={links.writing}
                    {...EXTERNAL_LINK}
                    aria-label={t('menu.useLabel', { name: t('menu.writingName') })}
                    data-testid="account-gift-link-writing"
                  >
                    {t('menu.use')}
                    <ExternalIcon size={13} />
                  </a>
                )}
              </li>
              <li className="account__gift">
                <DrawingIcon size={36} />
                <span className="account__gift-text" data-testid="benefit-drawing">
                  {t('menu.drawingGift', { tokens: benefits.drawingTokens })}
                </span>
                {links.drawing && (
                  <a
                    className="account__gift-link"
                    href={links.drawing}
                    {...EXTERNAL_LINK}
                    aria-label={t('menu.useLabel', { name: t('menu.drawingName') })}
                    data-testid="account-gift-link-drawing"
                  >
                    {t('menu.use')}
                    <ExternalIcon size={13} />
                  </a>
                )}
              </li>
            </ul>
          </section>
        ) : (
          user && <p className="account__note">{t('menu.noGifts')}</p>
        )}
        <div className="account__footer">
          <button
            type="button"
            className="account__delete"
            onClick={() => {
              setOpen(false);
              setDeleting(true);
            }}
            data-testid="account-delete"
          >
            {t('menu.deleteAccount')}
          </button>
        </div>
      </div>
      {deleting && (
        <Suspense fallback={null}>
          <DeleteAccountDialog open onClose={() => setDeleting(false)} />
        </Suspense>
      )}
    </div>
  );
}
