import { lazy, Suspense } from 'react';

const load = () => import('./Markdown.tsx');
const Markdown = lazy(() => load().then((m) => ({ default: m.Markdown })));

/**
 * Fetches the Markdown renderer (react-markdown, KaTeX and its stylesheet: most of a tool page's
 * weight) ahead of need, e.g. once the visitor starts on the form, so the page never waits for it
 * to draw and an answer rarely does. Idempotent.
 */
export function preloadMarkdown(): void {
  void load();
}

/** {@link Markdown} loaded on demand; until it is there, the answer shows as plain text. */
export function LazyMarkdown({ children }: { children: string }) {
  return (
    <Suspense
      fallback={
        <div className="md md--plain" data-render="loading">
          {children}
        </div>
      }
    >
      <Markdown>{children}</Markdown>
    </Suspense>
  );
}
