import type { Leaderboard } from '@duet/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';

/**
 * "42 votes on questions asked more than 50 times are not counted", with a link to the board that
 * counts them (`?dedup=off`) and back. Shown when the prompt cap set votes aside, or when the board
 * counts every vote; a style-controlled board is de-duplicated only, so it gets no link.
 */
export function DedupNotice({ board }: { board: Pick<Leaderboard, 'dedup' | 'promptCap' | 'cappedVotes' | 'control'> }) {
  const { t, i18n } = useTranslation('leaderboard');
  const [params] = useSearchParams();
  const num = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const off = board.dedup === 'off';
  if (!off && (board.cappedVotes === 0 || board.promptCap === 0)) return null;
  const other = new URLSearchParams(params);
  if (off) other.delete('dedup');
  else other.set('dedup', 'off');
  const values = { count: board.cappedVotes, votes: num.format(board.cappedVotes), cap: num.format(board.promptCap) };
  const text = off ? (board.cappedVotes > 0 ? t('dedup.included', values) : t('dedup.includedNone')) : t('dedup.setAside', values);
  return (
    <p className="lb-dedup" data-testid="leaderboard-dedup" data-dedup={board.dedup} data-capped={board.cappedVotes}>
      <span>{text}</span>{' '}
      {board.control === 'none' && (
        <Link to={{ search: other.toString() ? `?${other.toString()}` : '' }} replace data-testid="leaderboard-dedup-toggle">
          {off ? t('dedup.showDeduped') : t('dedup.showAll')}
        </Link>
      )}
    </p>
  );
}
