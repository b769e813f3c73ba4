import { EhrLaunchPaths, EhrLaunchResolved } from '@rpm/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';

export const resolveLaunchCall = defineCall('POST', EhrLaunchPaths.resolve, import.meta.env.DEV && EhrLaunchResolved);

/** POST /api/ehr-launch/resolve: the portal patient of a completed EHR launch (used once). */
export const resolveLaunch = (launch: string) => callApi(resolveLaunchCall, { body: { launch } });

export const useResolveLaunch = () => useMutation({ mutationFn: resolveLaunch });
