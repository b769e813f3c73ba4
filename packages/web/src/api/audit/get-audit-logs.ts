import { AuditLogsResponse } from '@rpm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const getAuditLogsCall = defineCall('GET', '/api/audit-logs', import.meta.env.DEV && AuditLogsResponse);

export const getAuditLogs = (limit: number, offset: number, snapshot?: number) =>
  callApi(getAuditLogsCall, { query: { limit, offset, snapshot } });

/**
 * Reading the log writes to it: pages after the first are read as the log stood at the first
 * answer (its `snapshot`, kept in `snapshot` by the page), so browsing neither shifts rows nor
 * grows the total. A new `epoch` starts over from the newest entries.
 */
export const useAuditLogs = (epoch: number, limit: number, page: number, snapshot: RefObject<number | undefined>) =>
  useQuery({
    queryKey: [...useUserScope(), 'audit-logs', epoch, limit, page],
    queryFn: async () => {
      const data = await getAuditLogs(limit, page * limit, snapshot.current);
      snapshot.current ??= data.snapshot;
      return data;
    },
    placeholderData: keepPreviousData,
  });
