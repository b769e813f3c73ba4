import { ProgramList } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { programKeys } from './keys.ts';

export const getProgramsCall = defineCall('GET', '/api/programs', import.meta.env.DEV && ProgramList);

export const getPrograms = () => callApi(getProgramsCall);

/** Every program a patient may be enrolled in (built-in and added by admins). */
export const usePrograms = () =>
  useQuery({ queryKey: programKeys.all(useUserScope()), queryFn: getPrograms, staleTime: 5 * 60_000 });
