import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

const wrap: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: '60vh',
  padding: '48px 20px',
};

const image: CSSProperties = { display: 'block', width: '100%', maxWidth: 640, height: 'auto' };

/** Any unknown path: an image only. */
export default function NotFoundPage() {
  const { t } = useTranslation('common');

  useDocumentTitle(t('notFound.documentTitle'));

  return (
    <div style={wrap} data-testid="not-found">
      <img src="/404.svg" alt={t('notFound.imageAlt')} width={640} height={480} style={image} fetchPriority="high" />
    </div>
  );
}
