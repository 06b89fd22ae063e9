import type { Meta, SisterLinks, SiteContact } from '@duet/contracts';
import { useQuery } from '@tanstack/react-query';
import { duetApi } from './duet-api.ts';

/**
 * `GET /api/meta`, asked once per visit. `main.tsx` starts it before the first page loads, so what
 * depends on it (sister links, footer details, the demo notice) is there when the page draws.
 */
export const metaQuery = { queryKey: ['meta'], queryFn: duetApi.meta, staleTime: Infinity } as const;

export const useMeta = (): Meta | undefined => useQuery(metaQuery).data;

const NO_LINKS: SisterLinks = {};
const NO_CONTACT: SiteContact = { company: {} };

/** The sister services' configured addresses; none while unknown or when the call failed. */
export const useSisterLinks = (): SisterLinks => useMeta()?.sisterLinks ?? NO_LINKS;

/** The operator's configured contact and company details; none while unknown. */
export const useSiteContact = (): SiteContact => useMeta()?.contact ?? NO_CONTACT;
