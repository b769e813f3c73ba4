import { IngestionSourceWithSecret } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';
import { useSourceMutation } from './use-source-mutation.ts';

export const rotateIngestionSourceCall = defineCall(
  'POST',
  '/api/integrations/:id/rotate',
  import.meta.env.DEV && IngestionSourceWithSecret,
);

export const rotateIngestionSource = (id: string) => callApi(rotateIngestionSourceCall, { params: { id } });

export const useRotateSource = () => useSourceMutation(rotateIngestionSource);
