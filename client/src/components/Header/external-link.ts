/** Attributes for a link that leaves Duet in a new tab. */
export const EXTERNAL_LINK = { target: '_blank', rel: 'noopener noreferrer' } as const;
