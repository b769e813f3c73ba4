import { OrganizationSettings, type UpdateOrganizationSettingsBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { organizationKeys } from './keys.ts';

export const updateOrganizationSettingsCall = defineCall(
  'PUT',
  '/api/organizations/:id/settings',
  import.meta.env.DEV && OrganizationSettings,
);

export const updateOrganizationSettings = (id: number, body: UpdateOrganizationSettingsBody) =>
  callApi(updateOrganizationSettingsCall, { params: { id }, body });

/** PUT /api/organizations/{id}/settings; the answer replaces the cached settings. */
export function useUpdateOrganizationSettings(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: UpdateOrganizationSettingsBody) => updateOrganizationSettings(id, body),
    onSuccess: (settings) => queryClient.setQueryData(organizationKeys.settings(scope, id), settings),
  });
}
