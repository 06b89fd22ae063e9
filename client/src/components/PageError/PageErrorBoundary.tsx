import { Component } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import './PageError.css';

interface PageErrorBoundaryProps {
  /** The page shown; a new value (another address) gives the page a fresh try. */
  resetKey: string;
  children: ReactNode;
}

interface PageErrorBoundaryState {
  caught: boolean;
  /** The `resetKey` of the page that threw, once known. */
  failedAt: string | null;
}

/**
 * Catches whatever a page throws while rendering (a bug, a page script that failed to load
 * after a deploy) and shows a message with a reload button in its place, so the header, the
 * footer and the rest of the site stay usable instead of a blank window. React logs the error.
 */
export class PageErrorBoundary extends Component<PageErrorBoundaryProps, PageErrorBoundaryState> {
  state: PageErrorBoundaryState = { caught: false, failedAt: null };

  static getDerivedStateFromError(): Partial<PageErrorBoundaryState> {
    return { caught: true };
  }

  static getDerivedStateFromProps(
    props: PageErrorBoundaryProps,
    state: PageErrorBoundaryState,
  ): Partial<PageErrorBoundaryState> | null {
    if (state.caught && state.failedAt === null) return { failedAt: props.resetKey };
    if (state.failedAt !== null && state.failedAt !== props.resetKey) return { caught: false, failedAt: null };
    return null;
  }

  render() {
    return this.state.caught ? <PageError /> : this.props.children;
  }
}

/** What a visitor sees in place of a page that failed. */
function PageError() {
  const { t } = useTranslation('common');
  useDocumentTitle(t('pageError.documentTitle'));
  return (
    <div className="page-error container" role="alert" data-testid="page-error">
      <h1 className="page-error__title">{t('pageError.title')}</h1>
      <p className="page-error__body">{t('pageError.body')}</p>
      <div className="page-error__actions">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()} data-testid="page-error-reload">
          {t('pageError.reload')}
        </button>
        <Link className="btn" to="/">
          {t('pageError.home')}
        </Link>
      </div>
    </div>
  );
}
