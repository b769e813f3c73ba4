import { AdminUsersResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { userKeys } from './keys.ts';

export const getUsersCall = defineCall('GET', '/api/admin/users', import.meta.env.DEV && AdminUsersResponse);

export const getUsers = () => callApi(getUsersCall);

export const useUsers = () =>
  useQuery({ queryKey: userKeys.all(useUserScope()), queryFn: getUsers, select: (d) => d.users });
