import { RolesResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const getRolesCall = defineCall('GET', '/api/roles', import.meta.env.DEV && RolesResponse);

export const getRoles = () => callApi(getRolesCall);

export const useRoles = () =>
  useQuery({ queryKey: [...useUserScope(), 'roles'], queryFn: getRoles, select: (d) => d.roles });
