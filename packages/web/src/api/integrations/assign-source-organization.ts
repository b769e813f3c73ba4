import { IngestionSource, type AssignSourceOrganizationBody } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';
import { useSourceMutation } from './use-source-mutation.ts';

export const assignSourceOrganizationCall = defineCall(
  'PUT',
  '/api/integrations/:id/organization',
  import.meta.env.DEV && IngestionSource,
);

export const assignSourceOrganization = ({ id, ...body }: AssignSourceOrganizationBody & { id: string }) =>
  callApi(assignSourceOrganizationCall, { params: { id }, body });

export const useAssignSourceOrganization = () => useSourceMutation(assignSourceOrganization);
