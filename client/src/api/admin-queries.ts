/**
 * The operators' console reads, as TanStack queries under the `admin` key (dropped whole on
 * signing out), and its writes. Every answer is checked against its contract.
 */
import type { AuditFilter, BudgetsChange, ModelCreate, ModelPatch, ModerationQueuePage, QuotasChange } from '@duet/contracts';
import { ZAuditPageSchema, ZModerationChangeSchema, ZModerationQueuePageSchema, ZSpendReportSchema, ZBudgetsSchema } from '@duet/contracts/schemas/admin.schema';
import { ZAdminNowSchema, ZQuotasReportSchema } from '@duet/contracts/schemas/console.schema';
import { ZRosterModelSchema, ZRosterReportSchema } from '@duet/contracts/schemas/roster.schema';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { adminGet, adminSend, queryString } from './admin-http.ts';

/**
 * How often the first screen reads the figures again: with the gateway's own 2 s cache, what the
 * screen shows is at most 5 s old.
 */
export const NOW_REFRESH_MS = 3_000;
/** Battles a moderation page holds. */
export const MODERATION_PAGE = 20;
/** Entries an audit page holds. */
export const AUDIT_PAGE = 50;

export type ModerationState = ModerationQueuePage['state'];

export const adminKeys = {
  all: ['admin'] as const,
  now: ['admin', 'now'] as const,
  models: ['admin', 'models'] as const,
  spend: ['admin', 'spend'] as const,
  quotas: ['admin', 'quotas'] as const,
  moderation: (state: ModerationState) => ['admin', 'moderation', state] as const,
  audit: (filter: AuditFilter) => ['admin', 'audit', filter] as const,
  image: (url: string) => ['admin', 'image', url] as const,
};

export const useAdminNow = () =>
  useQuery({
    queryKey: adminKeys.now,
    queryFn: () => adminGet('/api/admin/now', ZAdminNowSchema),
    refetchInterval: NOW_REFRESH_MS,
    staleTime: 0,
  });

export const useRoster = () => useQuery({ queryKey: adminKeys.models, queryFn: () => adminGet('/api/admin/models', ZRosterReportSchema), staleTime: 0 });

export const useSpend = () => useQuery({ queryKey: adminKeys.spend, queryFn: () => adminGet('/api/admin/spend', ZSpendReportSchema), staleTime: 0 });

export const useQuotas = () => useQuery({ queryKey: adminKeys.quotas, queryFn: () => adminGet('/api/admin/quotas', ZQuotasReportSchema), staleTime: 0 });

/** One state's queue, a page at a time (newest first). */
export const useModerationQueue = (state: ModerationState) =>
  useInfiniteQuery({
    queryKey: adminKeys.moderation(state),
    queryFn: ({ pageParam }) =>
      adminGet(`/api/admin/moderation${queryString({ state, cursor: pageParam, limit: MODERATION_PAGE })}`, ZModerationQueuePageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: Infinity,
  });

/** The audit log under a filter, newest first, a page at a time. */
export const useAuditLog = (filter: AuditFilter) =>
  useInfiniteQuery({
    queryKey: adminKeys.audit(filter),
    queryFn: ({ pageParam }) => adminGet(`/api/admin/audit${queryString({ ...filter, cursor: pageParam, limit: AUDIT_PAGE })}`, ZAuditPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminWrites = {
  patchModel: (id: string, patch: ModelPatch) => adminSend('PATCH', `/api/admin/models/${encodeURIComponent(id)}`, patch, ZRosterModelSchema),
  createModel: (model: ModelCreate) => adminSend('POST', '/api/admin/models', model, ZRosterModelSchema),
  setBudgets: (change: BudgetsChange) => adminSend('PUT', '/api/admin/budgets', change, ZBudgetsSchema),
  setQuotas: (change: QuotasChange) => adminSend('PUT', '/api/admin/quotas', change, ZQuotasReportSchema),
  decide: (battleId: string, action: 'approve' | 'takedown' | 'restore', reason?: string) =>
    adminSend('POST', `/api/admin/battles/${encodeURIComponent(battleId)}/${action}`, reason ? { reason } : {}, ZModerationChangeSchema),
};
