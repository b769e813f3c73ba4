import { IngestionSource } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';
import { useSourceMutation } from './use-source-mutation.ts';

export const revokeIngestionSourceCall = defineCall(
  'DELETE',
  '/api/integrations/:id',
  import.meta.env.DEV && IngestionSource,
);

export const revokeIngestionSource = (id: string) => callApi(revokeIngestionSourceCall, { params: { id } });

export const useRevokeSource = () => useSourceMutation(revokeIngestionSource);
