/** The id of a field's error message in the form `formId`. */
export const fieldErrorId = (formId: string, name: string): string => `${formId}-${name}-error`;

/** An `aria-describedby` value from the ids that apply (undefined when none does). */
export const describedBy = (...ids: Array<string | false | null | undefined>): string | undefined =>
  ids.filter(Boolean).join(' ') || undefined;
