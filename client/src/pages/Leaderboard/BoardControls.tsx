import { LEADERBOARD_CATEGORIES, LEADERBOARD_CONTROLS } from '@duet/contracts/schemas/leaderboard.schema';
import type { LeaderboardCategory, LeaderboardControl } from '@duet/contracts';
import { useTranslation } from 'react-i18next';

interface BoardControlsProps {
  category: LeaderboardCategory | null;
  control: LeaderboardControl;
  onCategory: (category: LeaderboardCategory | null) => void;
  onControl: (control: LeaderboardControl) => void;
}

/**
 * Two switches over the board: which votes (every question, a language, with or without a picture,
 * with follow-ups) and which ratings (as voted, or style-controlled). Radio groups: one choice
 * each, arrow keys move.
 */
export function BoardControls({ category, control, onCategory, onControl }: BoardControlsProps) {
  const { t } = useTranslation('leaderboard');
  return (
    <div className="lb-switches">
      <fieldset className="lb-switch" data-testid="leaderboard-category">
        <legend className="lb-filter__label">{t('category.label')}</legend>
        <div className="lb-switch__options">
          {([null, ...LEADERBOARD_CATEGORIES] as const).map((c) => (
            <label key={c ?? 'all'} className={`lb-switch__option${c === category ? ' lb-switch__option--on' : ''}`}>
              <input type="radio" name="lb-category" value={c ?? ''} checked={c === category} onChange={() => onCategory(c)} />
              {t(`category.${c ?? 'all'}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="lb-switch" data-testid="leaderboard-control">
        <legend className="lb-filter__label">{t('control.label')}</legend>
        <div className="lb-switch__options">
          {LEADERBOARD_CONTROLS.map((c) => (
            <label key={c} className={`lb-switch__option${c === control ? ' lb-switch__option--on' : ''}`}>
              <input type="radio" name="lb-control" value={c} checked={c === control} onChange={() => onControl(c)} />
              {t(`control.${c}`)}
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
