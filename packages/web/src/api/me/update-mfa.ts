import { MeResponse } from '@rpm/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';

export const updateMfaCall = defineCall('POST', '/api/me/mfa', import.meta.env.DEV && MeResponse);

/** Records in the portal whether the user has MFA on (the pool holds the secret itself). */
export const updateMfa = (enabled: boolean) => callApi(updateMfaCall, { body: { enabled } });

export const useUpdateMfa = () => useMutation({ mutationFn: updateMfa });
