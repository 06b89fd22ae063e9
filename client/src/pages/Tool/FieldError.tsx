/** A field's message, announced when it appears; the control points at it with `aria-describedby`. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="ask-field__error" id={id} role="alert">
      {message}
    </p>
  );
}
