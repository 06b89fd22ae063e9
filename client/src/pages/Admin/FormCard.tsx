import type { FormEvent, ReactNode } from 'react';

/**
 * A card that is one form: a heading that names the card, a line that says what the form does,
 * the form's fields and notices (`children`), then its buttons.
 */
export function FormCard(props: {
  /** The heading's id, which names the card for screen readers. */
  titleId: string;
  title: string;
  lead: string;
  /** Classes besides `adm-card`. */
  className: string;
  leadClassName: string;
  testId: string;
  onSubmit: (e: FormEvent) => void;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={`adm-card ${props.className}`} aria-labelledby={props.titleId}>
      <h2 id={props.titleId} className="adm-h2">
        {props.title}
      </h2>
      <p className={props.leadClassName}>{props.lead}</p>
      <form className="adm-form" onSubmit={props.onSubmit} data-testid={props.testId}>
        {props.children}
        <div className="adm-actions">{props.actions}</div>
      </form>
    </section>
  );
}

/** What went wrong with a form, said where the form is; nothing when nothing did. */
export function FormAlert({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="adm-alert adm-alert--error" role="alert">
      {text}
    </p>
  );
}
