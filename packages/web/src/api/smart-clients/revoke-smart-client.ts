import { SMART_CLIENTS_PATH, SmartClient } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';
import { useSmartClientMutation } from './use-smart-client-mutation.ts';

export const revokeSmartClientCall = defineCall(
  'POST',
  `${SMART_CLIENTS_PATH}/:id/revoke`,
  import.meta.env.DEV && SmartClient,
);

export const revokeSmartClient = (id: string) => callApi(revokeSmartClientCall, { params: { id } });

export const useRevokeSmartClient = () => useSmartClientMutation(revokeSmartClient);
