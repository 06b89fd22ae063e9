import type { ModelPatch } from '@duet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, adminWrites } from '../../../api/admin-queries.ts';
import { ApiError } from '../../../api/http.ts';
import type { ConfirmRequest } from '../ConfirmDialog.tsx';

/**
 * A change to one model. When the API answers 409 `confirmation_required` (the change would leave
 * fewer than two models to draw from), the operator is asked, and the change sent again with
 * `force` if they agree. Resolves false when they did not; throws the API's refusals.
 */
export function useModelChange(confirm: (request: ConfirmRequest) => Promise<boolean>) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  return useCallback(
    async (id: string, patch: ModelPatch): Promise<boolean> => {
      try {
        try {
          await adminWrites.patchModel(id, patch);
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 'confirmation_required')) throw err;
          const ok = await confirm({ title: t('models.lastTwo.title'), message: err.message, confirmLabel: t('models.lastTwo.confirm') });
          if (!ok) return false;
          await adminWrites.patchModel(id, { ...patch, force: true });
        }
        return true;
      } finally {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: adminKeys.models }),
          queryClient.invalidateQueries({ queryKey: adminKeys.now }),
        ]);
      }
    },
    [confirm, queryClient, t],
  );
}
