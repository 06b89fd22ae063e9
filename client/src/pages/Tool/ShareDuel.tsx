import type { MouseEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../components/copy-text.ts';
import './ShareDuel.css';

/** How long "Link copied" stays up. */
const COPIED_MS = 2_000;

/**
 * The voted battle's own address (`/b/:id`): copied with one press, or handed to the phone's share
 * sheet (Web Share API) where the browser has one.
 */
export function ShareDuel({ battleId, title }: { battleId: string; title: string }) {
  const { t } = useTranslation('battle');
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const url = `${window.location.origin}/b/${battleId}`;
  const canShare = typeof navigator.share === 'function';

  const onCopy = async (e: MouseEvent<HTMLButtonElement>) => {
    const ok = await copyText(url, input.current, e.currentTarget);
    setCopied(ok ? 'yes' : 'failed');
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(null), COPIED_MS);
  };

  const onShare = async () => {
    try {
      await navigator.share({ title, text: t('share.shareText'), url });
    } catch {
      // Closed without sharing, or refused: nothing to say.
    }
  };

  return (
    <div className="share-duel" role="group" aria-labelledby="share-duel-heading" data-testid="share-duel">
      <h3 id="share-duel-heading" className="vote-result__sub">
        {t('share.heading')}
      </h3>
      <div className="share-duel__row">
        <input
          ref={input}
          className="share-duel__url"
          type="text"
          readOnly
          value={url}
          aria-label={t('share.urlLabel')}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="share-duel-url"
        />
        <button type="button" className="btn btn--primary btn--sm" onClick={(e) => void onCopy(e)} data-testid="share-duel-copy">
          {t('share.copyLink')}
        </button>
        {canShare && (
          <button type="button" className="btn btn--sm" onClick={() => void onShare()} data-testid="share-duel-native">
            {t('share.shareVia')}
          </button>
        )}
      </div>
      <p className="share-duel__status" role="status" data-testid="share-duel-status">
        {copied === 'yes' ? t('share.copied') : copied === 'failed' ? t('share.copyFailed') : ''}
      </p>
    </div>
  );
}
