import { useEffect, useRef } from 'react';
import { toast } from '../state/toasts.ts';

/** Shows `message` as an error toast once per failure of a query (and logs the error). */
export function useErrorToast(error: unknown, errorUpdatedAt: number, message: string): void {
  const shown = useRef(0);
  useEffect(() => {
    if (!error || shown.current === errorUpdatedAt) return;
    shown.current = errorUpdatedAt;
    console.error(error);
    toast.error(message);
  }, [error, errorUpdatedAt, message]);
}
