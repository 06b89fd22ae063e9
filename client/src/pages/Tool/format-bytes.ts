/** A file size as people read it: "3.2 MB", "12 MB", "640 KB" (at least 1 KB), in the visitor's language. */
export function formatBytes(bytes: number, lang: string): string {
  const mb = bytes / (1024 * 1024);
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: mb < 10 ? 1 : 0 });
  return mb >= 1 ? `${nf.format(mb)} MB` : `${nf.format(Math.max(1, Math.round(bytes / 1024)))} KB`;
}
