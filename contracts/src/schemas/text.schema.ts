import { z } from 'zod';

/** Half of a UTF-16 surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a string is text a person could have typed: no NUL character and no lone surrogate.
 * PostgreSQL refuses NUL in text and JSONB, and a lone surrogate cannot be encoded as UTF-8 (it
 * would be stored as U+FFFD), so requests carrying either are refused before they get that far.
 */
export const isWellFormedText = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

export const MALFORMED_TEXT_MESSAGE = 'Text cannot contain NUL characters or unpaired surrogates';

/** The base of every string a request carries: a string refused with a 400 when it is not well-formed text. */
export const ZRequestTextSchema = z.string().refine(isWellFormedText, MALFORMED_TEXT_MESSAGE);
