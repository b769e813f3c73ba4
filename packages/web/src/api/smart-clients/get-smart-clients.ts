import { SMART_CLIENTS_PATH, SmartClientsResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { smartClientKeys } from './keys.ts';

export const getSmartClientsCall = defineCall('GET', SMART_CLIENTS_PATH, import.meta.env.DEV && SmartClientsResponse);

export const getSmartClients = () => callApi(getSmartClientsCall);

export const useSmartClients = () =>
  useQuery({ queryKey: smartClientKeys.all(useUserScope()), queryFn: getSmartClients });
