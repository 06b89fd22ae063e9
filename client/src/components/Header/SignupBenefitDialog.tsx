import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon, DrawingIcon, ExternalIcon, WritingIcon } from './Icons.tsx';
import { Modal } from './Modal.tsx';
import { EXTERNAL_LINK, SISTER_SITES } from './sister-sites.ts';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** Promotes the sister writing and drawing services a Duet signup unlocks. */
export function SignupBenefitDialog({ open, onClose }: Props) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const offers = [
    { key: 'writing', href: SISTER_SITES.writing, Icon: WritingIcon },
    { key: 'drawing', href: SISTER_SITES.drawing, Icon: DrawingIcon },
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
              <a className="benefit-offer__link" href={href} {...EXTERNAL_LINK} data-testid={`benefit-link-${key}`}>
                {t(`benefit.${key}.cta`)}
                <ExternalIcon size={14} />
                <span className="visually-hidden"> {t('benefit.opensInNewTab')}</span>
              </a>
            </div>
          </li>
        ))}
      </ul>
      <p className="benefit-dialog__note">{t('benefit.note')}</p>
    </Modal>
  );
}
