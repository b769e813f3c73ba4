import { IngestionSourceWithSecret, type CreateIngestionSourceBody } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';
import { useSourceMutation } from './use-source-mutation.ts';

export const createIngestionSourceCall = defineCall(
  'POST',
  '/api/integrations',
  import.meta.env.DEV && IngestionSourceWithSecret,
);

export const createIngestionSource = (body: CreateIngestionSourceBody) => callApi(createIngestionSourceCall, { body });

export const useCreateSource = () => useSourceMutation(createIngestionSource);
