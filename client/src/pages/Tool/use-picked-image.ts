import { useCallback, useEffect, useRef, useState } from 'react';
import { useDuetStore } from '../../state/store.ts';
import { checkImage } from './image-check.ts';
import type { ImageProblem } from './image-check.ts';

/** The image picked for the question, checked the way the gateway will check it. */
export interface PickedImage {
  /** The accepted file, or null. */
  file: File | null;
  /** Why the last file picked was refused, with its size. */
  problem: { problem: ImageProblem; size: number } | null;
  /** A file is being checked: the form waits. */
  checking: boolean;
  /** Object URL of the accepted file for its preview ('' when none): the store's `uploadedImage`. */
  previewUrl: string;
  pick: (file: File | undefined) => Promise<void>;
  remove: () => void;
}

/**
 * Where a form keeps its preview's object URL: the store's `uploadedImage` (the question's form, as
 * the specification has it) or the form's own state (a follow-up's form, shown beside the other).
 * The URL is released when it is replaced and when the form goes.
 */
function usePreviewUrl(own: boolean): [string, (url: string) => void] {
  const stored = useDuetStore((s) => s.uploadedImage);
  const setStored = useDuetStore((s) => s.setUploadedImage);
  const [mine, setMine] = useState('');
  const mineRef = useRef('');
  const setOwn = useCallback((url: string) => {
    if (mineRef.current && mineRef.current !== url) URL.revokeObjectURL(mineRef.current);
    mineRef.current = url;
    setMine(url);
  }, []);
  const set = own ? setOwn : setStored;
  useEffect(() => () => set(''), [set]);
  return [own ? mine : stored, set];
}

/** Holds a form's image; `own`: its preview is the form's own, not the store's `uploadedImage`. */
export function usePickedImage(own = false): PickedImage {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<PickedImage['problem']>(null);
  const [checking, setChecking] = useState(false);
  const [previewUrl, setUploadedImage] = usePreviewUrl(own);

  async function pick(picked: File | undefined) {
    if (!picked) return;
    setChecking(true);
    const found = await checkImage(picked).catch((): ImageProblem => 'unsupported_image_type');
    setChecking(false);
    if (found) {
      setFile(null);
      setUploadedImage('');
      setProblem({ problem: found, size: picked.size });
      return;
    }
    setProblem(null);
    setFile(picked);
    setUploadedImage(URL.createObjectURL(picked));
  }

  function remove() {
    setFile(null);
    setProblem(null);
    setUploadedImage('');
  }

  return { file, problem, checking, previewUrl, pick, remove };
}
