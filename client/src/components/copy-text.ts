/**
 * Puts text on the clipboard; falls back to selecting `input` (which holds the text) and
 * `execCommand('copy')`. Focus goes back to `returnFocus` (the Copy button) after the fallback.
 */
export async function copyText(text: string, input: HTMLInputElement | null, returnFocus: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused or not a secure context: try the old way below.
  }
  if (!input) return false;
  try {
    input.focus();
    input.select();
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    returnFocus?.focus();
  }
}
