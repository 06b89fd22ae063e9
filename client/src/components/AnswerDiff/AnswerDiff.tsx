import type { Side } from '@duet/contracts';
import { useTranslation } from 'react-i18next';
import type { AnswerDiff as Diff } from './answer-diff.ts';
import './AnswerDiff.css';

interface DiffToggleProps {
  on: boolean;
  onChange: (on: boolean) => void;
  testId: string;
}

/** "Show differences": a toggle button (aria-pressed) that looks like a switch, its state shown by the knob, not by colour alone. */
export function DiffToggle({ on, onChange, testId }: DiffToggleProps) {
  const { t } = useTranslation('battle');
  return (
    <button type="button" className="diff-toggle" aria-pressed={on} onClick={() => onChange(!on)} data-testid={testId}>
      <span className="diff-toggle__track" aria-hidden="true">
        <span className="diff-toggle__knob" />
      </span>
      {t('diff.toggle')}
    </button>
  );
}

/**
 * One answer in difference mode: its text as written (Markdown unrendered), each stretch the other
 * answer does not have underlined on a tint and, for screen readers, opened and closed in words.
 * A legend above says what the marks mean and how many there are.
 */
export function AnswerDiffText({ diff, side }: { diff: Diff; side: Side }) {
  const { t } = useTranslation('battle');
  const runs = diff[side];
  const label = side.toUpperCase();
  const marked = runs.filter((r) => r.kind === 'only').length;
  return (
    <div className={`adiff adiff--${side}`} data-testid={`diff-${side}`}>
      <p className="adiff__legend">
        {marked > 0 && (
          <mark className="adiff__only adiff__sample" aria-hidden="true">
            {t('diff.sample')}
          </mark>
        )}
        <span>{t('diff.legend', { count: marked, side: label })}</span>
      </p>
      {diff.unrelated && <p className="adiff__note">{t('diff.unrelated')}</p>}
      <div className="adiff__text">
        {runs.map((run, i) =>
          run.kind === 'only' ? (
            <mark key={i} className="adiff__only" data-diff="only">
              <span className="visually-hidden">{t('diff.onlyStart', { side: label })} </span>
              {run.text}
              <span className="visually-hidden"> {t('diff.onlyEnd')}</span>
            </mark>
          ) : run.kind === 'unchecked' ? (
            <span key={i} data-diff="unchecked">
              <span className="adiff__cut">{t('diff.cut')}</span>
              {run.text.trimStart()}
            </span>
          ) : (
            <span key={i} data-diff="same">
              {run.text}
            </span>
          ),
        )}
      </div>
    </div>
  );
}
