import type { ReactNode } from 'react';

interface AdminScreenProps {
  /** The screen's name: its heading's id and its test id. */
  name: string;
  title: string;
  /** What stands beside the title (a summary, a button). */
  aside?: ReactNode;
  children: ReactNode;
}

/** One console screen: a section named by its heading, with what stands beside it. */
export function AdminScreen({ name, title, aside, children }: AdminScreenProps) {
  return (
    <section className="adm-screen" aria-labelledby={`adm-${name}-title`} data-testid={`admin-${name}`}>
      <header className="adm-screen__head">
        <h1 id={`adm-${name}-title`} className="adm-title">
          {title}
        </h1>
        {aside}
      </header>
      {children}
    </section>
  );
}
