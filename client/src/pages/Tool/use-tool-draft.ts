import { useCallback, useEffect, useState } from 'react';
import { currentLanguage } from '../../i18n/index.ts';
import type { Draft } from './tool-draft.ts';
import { loadDraft, saveDraft } from './tool-draft.ts';

/**
 * The tool form's unfinished question, kept in the tab's session storage as it is typed, so a
 * reload keeps it. `set` changes one entry.
 */
export function useToolDraft(tool: string) {
  const [draft, setDraft] = useState<Draft>(() => loadDraft(sessionStorage, tool, currentLanguage()));

  useEffect(() => {
    saveDraft(sessionStorage, tool, draft);
  }, [draft, tool]);

  const set = useCallback(<K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value })), []);

  return { draft, set };
}
