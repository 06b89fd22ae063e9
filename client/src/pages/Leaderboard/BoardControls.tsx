import { LEADERBOARD_CATEGORIES, LEADERBOARD_CONTROLS, RATING_INTERVAL_METHODS } from '@duet/contracts/schemas/leaderboard.schema';
import type { LeaderboardCategory, LeaderboardControl, RatingIntervalMethod } from '@duet/contracts';
import { useTranslation } from 'react-i18next';

interface BoardControlsProps {
  category: LeaderboardCategory | null;
  control: LeaderboardControl;
  onCategory: (category: LeaderboardCategory | null) => void;
  onControl: (control: LeaderboardControl) => void;
  /** The intervals the board shows; null: the board has one kind only (no switch). */
  intervals: RatingIntervalMethod | null;
  onIntervals: (intervals: RatingIntervalMethod) => void;
}

/** One radio group: its options keyed (`all` for null) and labelled by `leaderboard:<name>.<key>`. */
function Switch<T extends string | null>({ name, options, value, onChange }: { name: 'category' | 'control' | 'intervals'; options: readonly T[]; value: T; onChange: (value: T) => void }) {
  const { t } = useTranslation('leaderboard');
  return (
    <fieldset className="lb-switch" data-testid={`leaderboard-${name}`}>
      <legend className="lb-filter__label">{t(`${name}.label`)}</legend>
      <div className="lb-switch__options">
        {options.map((o) => (
          <label key={o ?? 'all'} className={`lb-switch__option${o === value ? ' lb-switch__option--on' : ''}`}>
            <input type="radio" name={`lb-${name}`} value={o ?? ''} checked={o === value} onChange={() => onChange(o)} />
            {t(`${name}.${o ?? 'all'}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Switches over the board: which votes (every question, a language, with or without a picture,
 * with follow-ups), which ratings (as voted, or style-controlled) and, where the board has both,
 * which 95% intervals (bootstrap or closed-form). Radio groups: one choice each, arrow keys move.
 */
export function BoardControls({ category, control, onCategory, onControl, intervals, onIntervals }: BoardControlsProps) {
  return (
    <div className="lb-switches">
      <Switch name="category" options={[null, ...LEADERBOARD_CATEGORIES]} value={category} onChange={onCategory} />
      <Switch name="control" options={LEADERBOARD_CONTROLS} value={control} onChange={onControl} />
      {intervals && <Switch name="intervals" options={RATING_INTERVAL_METHODS} value={intervals} onChange={onIntervals} />}
    </div>
  );
}
