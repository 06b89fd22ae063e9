/** The sister services a Duet account also opens (shown in the header, footer and intro page). */
export const SISTER_SITES = {
  writing: 'https://write.duet.example',
  drawing: 'https://draw.duet.example',
} as const;

export type SisterSite = keyof typeof SISTER_SITES;

/** Attributes for a link that leaves Duet in a new tab. */
export const EXTERNAL_LINK = { target: '_blank', rel: 'noopener noreferrer' } as const;
