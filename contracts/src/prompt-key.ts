/**
 * The question as de-duplication compares it: Unicode NFKC (full-width and compatibility forms to
 * their plain ones), lower case, and without punctuation, symbols, spacing or invisible format
 * characters (Unicode categories P, S, Z, Cc, Cf and white space). "What is 2+2?", "what is 2 + 2"
 * and "WHAT IS 2+2!!" are one question. Spacing goes entirely rather than being collapsed: "2+2"
 * and "2 + 2" differ only by it once the "+" is gone, and Korean spacing (띄어쓰기) varies freely
 * between writers of the same sentence. Letters and digits of every script stay as written
 * (Hangul has no case). An empty key (a question of symbols or emoji only) is no key: such
 * questions cannot be told apart, so they are never capped.
 */
export function promptKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\p{Z}\p{Cc}\p{Cf}\s]+/gu, '');
}
