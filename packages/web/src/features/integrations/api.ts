import type { CreateIngestionSourceBody, IngestionSource, IngestionSourceWithSecret } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiGet, apiPost } from '../../lib/api-client.ts';

export const integrationKeys = { all: ['integrations'] as const };

export const useIngestionSources = () =>
  useQuery({ queryKey: integrationKeys.all, queryFn: () => apiGet<IngestionSource[]>('/api/integrations') });

function useSourceMutation<T>(fn: (arg: T) => Promise<IngestionSourceWithSecret | IngestionSource>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export const useCreateSource = () =>
  useSourceMutation((body: CreateIngestionSourceBody) => apiPost<IngestionSourceWithSecret>('/api/integrations', body));
export const useRotateSource = () =>
  useSourceMutation((id: string) => apiPost<IngestionSourceWithSecret>(`/api/integrations/${id}/rotate`));
export const useRevokeSource = () =>
  useSourceMutation((id: string) => api<IngestionSource>('DELETE', `/api/integrations/${id}`));
