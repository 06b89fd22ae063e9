import { useTranslation } from 'react-i18next';
import type { ModelOption } from './model-choice.ts';

interface ModelChoiceProps {
  formId: string;
  models: readonly ModelOption[];
  /** The two models chosen (sides a and b), or null for a blind battle. */
  pair: [string, string] | null;
  choosing: boolean;
  busy: boolean;
  onMode: (choosing: boolean) => void;
  onPick: (side: 'a' | 'b', id: string) => void;
}

/**
 * Blind (two models drawn unseen, the default) or two models the visitor names. Choosing on one
 * side the model the other side holds swaps them: the pair is always two different models, and
 * with only two models on offer the sides can still be swapped.
 */
export function ModelChoice({ formId, models, pair, choosing, busy, onMode, onPick }: ModelChoiceProps) {
  const { t } = useTranslation('battle');
  const noteId = `${formId}-models-note`;
  return (
    <fieldset className="ask-field ask-field--group ask-models" data-testid="model-mode">
      <legend className="ask-field__label">{t('form.modelMode')}</legend>
      <div className="ask-choices">
        {([false, true] as const).map((on) => (
          <label className={`ask-choice${choosing === on ? ' ask-choice--on' : ''}`} key={String(on)}>
            <input
              type="radio"
              name={`${formId}-model-mode`}
              value={on ? 'chosen' : 'blind'}
              checked={choosing === on}
              onChange={() => onMode(on)}
              disabled={busy}
              data-testid={on ? 'model-mode-chosen' : 'model-mode-blind'}
            />
            <span>{on ? t('form.modelModeChosen') : t('form.modelModeBlind')}</span>
          </label>
        ))}
      </div>
      {choosing && pair && (
        <>
          <div className="ask-row ask-models__pair">
            {(['a', 'b'] as const).map((side, i) => (
              <div className="ask-field" key={side}>
                <label className="ask-field__label" htmlFor={`${formId}-model-${side}`}>
                  {t(side === 'a' ? 'form.modelA' : 'form.modelB')}
                </label>
                <select
                  id={`${formId}-model-${side}`}
                  className="ask-input ask-select"
                  value={pair[i]}
                  onChange={(e) => onPick(side, e.target.value)}
                  aria-describedby={noteId}
                  disabled={busy}
                  data-testid={`model-${side}`}
                >
                  {models.map((m) => (
                    <option value={m.id} key={m.id}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </div>
          <p className="ask-models__note" id={noteId} data-testid="models-note">
            {t('form.modelsNote')}
          </p>
        </>
      )}
    </fieldset>
  );
}
