import { useTranslation } from 'react-i18next';
import { useRoster } from '../../../api/admin-queries.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useConfirm } from '../ConfirmDialog.tsx';
import { ErrorNotice } from '../Notice.tsx';
import { AddModelForm } from './AddModelForm.tsx';
import { ModelCard } from './ModelCard.tsx';
import { useModelChange } from './use-model-change.ts';
import { AdminScreen } from '../AdminScreen.tsx';

/** `/admin/models`: the live roster, edited in place. */
export default function ModelsScreen() {
  const { t } = useTranslation('admin');
  const { data, error } = useRoster();
  const [confirm, confirmDialog] = useConfirm();
  const change = useModelChange(confirm);
  useDocumentTitle(t('models.documentTitle'));
  const models = data?.models ?? [];
  const drawable = models.filter((m) => m.enabled && !m.retired).length;

  return (
    <AdminScreen
      name="models"
      title={t('models.title')}
      aside={data && <p className="adm-muted">{t('models.summary', { count: models.length, drawable })}</p>}
    >
      <p className="adm-lead">{t('models.lead')}</p>
      <ErrorNotice error={error} />
      <ul className="adm-models">
        {models.map((m) => (
          <li key={m.id}>
            <ModelCard model={m} change={change} confirm={confirm} />
          </li>
        ))}
      </ul>
      {data && <AddModelForm takenIds={models.map((m) => m.id)} />}
      {confirmDialog}
    </AdminScreen>
  );
}
