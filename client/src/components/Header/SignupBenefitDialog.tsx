import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon, DrawingIcon, ExternalIcon, WritingIcon } from './Icons.tsx';
import { Modal } from './Modal.tsx';
import { useSisterLinks } from '../../api/use-meta.ts';
import { EXTERNAL_LINK } from './external-link.ts';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** Promotes the sister writing and drawing services a Duet signup unlocks, linking those configured. */
export function SignupBenefitDialog({ open, onClose }: Props) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const links = useSisterLinks();
  const offers = [
    { key: 'writing', href: links.writing, Icon: WritingIcon },
    { key: 'drawing', href: links.drawing, Icon: DrawingIcon },
  ] as const;

  return (
    <Modal open={open} onClose={onClose} className="modal benefit-dialog" labelledBy={titleId} testId="signup-benefit-dialog">
      <div className="modal__head">
        <h2 id={titleId} className="modal__title">
          {t('benefit.title')}
        </h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('benefit.close')} data-autofocus>
          <CloseIcon />
        </button>
      </div>
      <p className="benefit-dialog__lead">{t('benefit.lead')}</p>
      <ul className="benefit-dialog__list">
        {offers.map(({ key, href, Icon }) => (
          <li key={key} className={`benefit-offer benefit-offer--${key}`}>
            <Icon size={52} className="benefit-offer__icon" />
            <div className="benefit-offer__body">
              <p className="benefit-offer__gift">{t(`benefit.${key}.gift`)}</p>
              <h3 className="benefit-offer__name">{t(`benefit.${key}.name`)}</h3>
              <p className="benefit-offer__desc">{t(`benefit.${key}.description`)}</p>
              {href && (
                <a className="benefit-offer__link" href={href} {...EXTERNAL_LINK} data-testid={`benefit-link-${key}`}>
                  {t(`benefit.${key}.cta`)}
                  <ExternalIcon size={14} />
                  <span className="visually-hidden"> {t('benefit.opensInNewTab')}</span>
                </a>
              )}
            </div>
          </li>
        ))}
      </ul>
      <p className="benefit-dialog__note">{t('benefit.note')}</p>
    </Modal>
  );
}
