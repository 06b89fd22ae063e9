import type { ToolDefinition } from '@duet/contracts/tools';
import type { MouseEvent } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currentLanguage } from '../../i18n/index.ts';
import { toast } from '../../state/toasts.ts';
import { copyText } from '../copy-text.ts';
import './ToolCard.css';

/** How long the "copied" popover stays up. */
const COPIED_MS = 1_500;

type CardTool = Pick<ToolDefinition, 'slug' | 'route' | 'images' | 'titleKey' | 'descriptionKey'>;

/** One activity on the home grid: image, title, description, and Start / History / Share. */
export function ToolCard({ tool }: { tool: CardTool }) {
  const { t } = useTranslation(['common', 'contents']);
  const [shareOpen, setShareOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const panelId = useId();
  const titleId = useId();

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const title = t(`contents:${tool.titleKey}`);
  const description = t(`contents:${tool.descriptionKey}`);
  const image = tool.images[0];
  const imageSrc = image ? (currentLanguage() === 'en' && image.engSrc ? image.engSrc : image.src) : undefined;
  const publicUrl = `${window.location.origin}${tool.route}`;

  const onCopy = async (e: MouseEvent<HTMLButtonElement>) => {
    const ok = await copyText(publicUrl, inputRef.current, e.currentTarget);
    if (!ok) {
      toast.error(t('common:card.copyFailed'));
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
  };

  const toggleShare = () => {
    setShareOpen((open) => !open);
    setCopied(false);
  };

  return (
    <article className={`tool-card${shareOpen ? ' tool-card--sharing' : ''}`} data-testid="tool-card" data-slug={tool.slug} aria-labelledby={titleId}>
      <Link to={tool.route} className="tool-card__media" tabIndex={-1}>
        {imageSrc && (
          <img
            src={imageSrc}
            alt={t('common:card.imageAlt', { title })}
            width={250}
            height={250}
            decoding="async"
          />
        )}
      </Link>
      <div className="tool-card__text">
        <h2 className="tool-card__title" id={titleId}>
          <Link to={tool.route} data-testid="tool-card-title">
            {title}
          </Link>
        </h2>
        <Link to={tool.route} className="tool-card__desc" data-testid="tool-card-description">
          {description}
        </Link>
      </div>
      <div className="tool-card__actions">
        <Link to={tool.route} className="btn btn--primary btn--sm" data-testid="tool-card-start">
          {t('common:card.start')}
          <span className="visually-hidden"> {title}</span>
        </Link>
        <Link to={`/history${tool.route}`} className="btn btn--sm" data-testid="tool-card-history">
          {t('common:card.history')}
          <span className="visually-hidden"> {title}</span>
        </Link>
        <button
          type="button"
          className="btn btn--sm tool-card__share"
          aria-expanded={shareOpen}
          aria-controls={panelId}
          onClick={toggleShare}
          data-testid="tool-card-share"
        >
          <ShareIcon />
          {t('common:card.share')}
        </button>
      </div>
      <div
        id={panelId}
        className="tool-card__panel"
        role="group"
        aria-label={t('common:card.shareTitle', { title })}
        hidden={!shareOpen}
        data-testid="share-panel"
      >
        {shareOpen && (
          <>
            <input
              ref={inputRef}
              className="tool-card__url"
              type="text"
              readOnly
              value={publicUrl}
              aria-label={t('common:card.publicUrl')}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="share-input"
            />
            <div className="tool-card__copy-wrap">
              <button type="button" className="btn btn--primary btn--sm" onClick={(e) => void onCopy(e)} data-testid="share-copy">
                {t('common:card.copy')}
              </button>
              <span className={`copy-popover${copied ? ' copy-popover--visible' : ''}`} role="status" data-testid="copy-popover">
                {copied ? t('common:card.copied') : ''}
              </span>
            </div>
          </>
        )}
      </div>
    </article>
  );
}

function ShareIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="18" cy="5" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="6" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="18" cy="19" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8.6 10.5l6.8-4M8.6 13.5l6.8 4" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
