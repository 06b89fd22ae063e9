import { useEffect, useState } from 'react';
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

/** Holds the form's image; the preview's object URL is released when the form goes. */
export function usePickedImage(): PickedImage {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<PickedImage['problem']>(null);
  const [checking, setChecking] = useState(false);
  const previewUrl = useDuetStore((s) => s.uploadedImage);
  const setUploadedImage = useDuetStore((s) => s.setUploadedImage);

  useEffect(() => () => setUploadedImage(''), [setUploadedImage]);

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
