/** The style features stored per answer, in the order of every feature vector (length in characters, then counts). */
export const STYLE_FEATURES = ['length', 'headers', 'listItems', 'bold', 'codeBlocks'] as const;
export type StyleFeature = (typeof STYLE_FEATURES)[number];
