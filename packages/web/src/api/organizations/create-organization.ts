import { Organization, type CreateOrganizationBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { organizationKeys } from './keys.ts';

export const createOrganizationCall = defineCall('POST', '/api/organizations', import.meta.env.DEV && Organization);

export const createOrganization = (body: CreateOrganizationBody) => callApi(createOrganizationCall, { body });

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all(scope) }),
  });
}
