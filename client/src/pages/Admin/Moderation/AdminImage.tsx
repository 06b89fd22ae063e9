import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminBlob } from '../../../api/admin-http.ts';
import { adminKeys } from '../../../api/admin-queries.ts';

/**
 * A battle's image from the operators' image route. An `<img src>` cannot carry the bearer
 * header, so the bytes are fetched with it and shown through an object URL, revoked once the
 * image is gone from the screen.
 */
export function AdminImage({ url, alt }: { url: string; alt: string }) {
  const { t } = useTranslation('admin');
  const { data, error } = useQuery({ queryKey: adminKeys.image(url), queryFn: () => adminBlob(url), staleTime: Infinity, gcTime: 60_000 });
  const [src, setSrc] = useState<string | null>(null);

  useEffect(() => {
    if (!data) return;
    const objectUrl = URL.createObjectURL(data);
    setSrc(objectUrl);
    return () => {
      URL.revokeObjectURL(objectUrl);
      setSrc(null);
    };
  }, [data]);

  if (error) return <p className="adm-muted adm-small">{t('moderation.imageMissing')}</p>;
  if (!src) return <div className="adm-image adm-image--loading" aria-hidden="true" />;
  return <img className="adm-image" src={src} alt={alt} data-testid="admin-battle-image" />;
}
