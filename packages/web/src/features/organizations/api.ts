import {
  organizationSettingsPath,
  type Organization,
  type OrganizationSettings,
  type UpdateOrganizationSettingsBody,
} from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPut } from '../../lib/api-client.ts';

export const organizationKeys = {
  all: ['organizations'] as const,
  settings: (id: number) => ['organizations', id, 'settings'] as const,
};

export const useOrganizationList = () =>
  useQuery({ queryKey: organizationKeys.all, queryFn: () => apiGet<Organization[]>('/api/organizations') });

export const useOrganizationSettings = (id: number) =>
  useQuery({
    queryKey: organizationKeys.settings(id),
    queryFn: () => apiGet<OrganizationSettings>(organizationSettingsPath(id)),
  });

/** PUT /api/organizations/{id}/settings; the answer replaces the cached settings. */
export function useUpdateOrganizationSettings(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationSettingsBody) =>
      apiPut<OrganizationSettings>(organizationSettingsPath(id), body),
    onSuccess: (settings) => queryClient.setQueryData(organizationKeys.settings(id), settings),
  });
}
