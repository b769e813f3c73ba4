import { SMART_CLIENTS_PATH, SmartClient, type CreateSmartClientBody } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';
import { useSmartClientMutation } from './use-smart-client-mutation.ts';

export const createSmartClientCall = defineCall('POST', SMART_CLIENTS_PATH, import.meta.env.DEV && SmartClient);

export const createSmartClient = (body: CreateSmartClientBody) => callApi(createSmartClientCall, { body });

export const useCreateSmartClient = () => useSmartClientMutation(createSmartClient);
