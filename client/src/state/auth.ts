import { create } from 'zustand';

/** Local storage keys of the specification's local OAuth profile state. */
export const AUTH_PROFILE_KEY = 'duet_oauth_profile';
export const ACCESS_TOKEN_KEY = 'duet_access_token';
export const PROVIDER_KEY = 'provider';
/** What logging out removes from local storage. */
export const ACCOUNT_KEYS = [AUTH_PROFILE_KEY, ACCESS_TOKEN_KEY, PROVIDER_KEY] as const;

/** The local OAuth profile state, restored from local storage at start when present. */
export interface OAuthProfile {
  isLogin: boolean;
  token: string;
  email: string;
  provider: string;
  displayName: string;
  userImage: string;
}

const DEFAULT_PROFILE: OAuthProfile = { isLogin: true, token: '', email: '', provider: '', displayName: '', userImage: '' };

const hasWindow = typeof window !== 'undefined';

function restore(): OAuthProfile {
  if (!hasWindow) return DEFAULT_PROFILE;
  try {
    const raw = window.localStorage.getItem(AUTH_PROFILE_KEY);
    return raw ? { ...DEFAULT_PROFILE, ...(JSON.parse(raw) as Partial<OAuthProfile>) } : DEFAULT_PROFILE;
  } catch {
    return DEFAULT_PROFILE;
  }
}

/** The access token, or '' when there is none. */
export const getAccessToken = (): string => (hasWindow ? (window.localStorage.getItem(ACCESS_TOKEN_KEY) ?? '') : '');

export function setAccessToken(token: string | null): void {
  if (!hasWindow) return;
  if (token) window.localStorage.setItem(ACCESS_TOKEN_KEY, token);
  else window.localStorage.removeItem(ACCESS_TOKEN_KEY);
  useAuth.setState({ accessToken: token ?? '' });
}

interface AuthState {
  oauth: OAuthProfile;
  accessToken: string;
  setOAuth: (profile: Partial<OAuthProfile>) => void;
  clear: () => void;
}

export const useAuth = create<AuthState>()((set, get) => ({
  oauth: restore(),
  accessToken: getAccessToken(),
  setOAuth: (profile) => {
    const oauth = { ...get().oauth, ...profile };
    if (hasWindow) window.localStorage.setItem(AUTH_PROFILE_KEY, JSON.stringify(oauth));
    set({ oauth });
  },
  clear: () => {
    // Only the account's own keys: the visitor's language choice (and anything else) stays.
    if (hasWindow) for (const key of ACCOUNT_KEYS) window.localStorage.removeItem(key);
    set({ oauth: DEFAULT_PROFILE, accessToken: '' });
  },
}));

/** Signed in means holding Duet's access token. */
export const useSignedIn = (): boolean => useAuth((s) => s.accessToken !== '');
