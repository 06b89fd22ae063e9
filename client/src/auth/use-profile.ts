import type { ProfileResponse } from '@duet/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api/http.ts';
import { setAccessToken, useAuth } from '../state/auth.ts';
import type { Profile } from '../state/store.ts';
import { useDuetStore } from '../state/store.ts';
import { toast } from '../state/toasts.ts';

export const PROFILE_QUERY_KEY = ['profile'] as const;

/**
 * The signed-in visitor's profile, fetched whenever an access token exists (keyed on the token)
 * and kept in the store's `profile`. HTTP 412 means the token is no longer valid: it is removed
 * and the specification's message shown; any other failure shows its generic error message.
 */
export function useProfile(): Profile {
  const { t } = useTranslation('auth');
  const token = useAuth((s) => s.accessToken);
  const setProfile = useDuetStore((s) => s.setProfile);
  const query = useQuery({
    queryKey: [...PROFILE_QUERY_KEY, token],
    queryFn: async () => (await api<ProfileResponse>('/api/v2/user/profile')).data,
    enabled: token !== '',
  });

  useEffect(() => {
    if (query.data) setProfile(query.data);
  }, [query.data, setProfile]);

  // One report per failure, even when effects run twice (development's strict mode).
  const reported = useRef(0);
  const { error, errorUpdatedAt } = query;
  useEffect(() => {
    if (!error || reported.current === errorUpdatedAt) return;
    reported.current = errorUpdatedAt;
    if (error instanceof ApiError && error.status === 412) {
      setAccessToken(null);
      setProfile({});
      toast.error(t('messages.invalidToken'));
    } else {
      toast.error(t('messages.profileError'));
    }
  }, [error, errorUpdatedAt, setProfile, t]);

  return useDuetStore((s) => s.profile);
}
