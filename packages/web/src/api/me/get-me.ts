import { MeResponse, type CurrentUser } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';

/*
 * The signed-in user is held by the session layer (lib/auth), not by the query cache: it decides
 * whose cache that is. Hence a fetcher and no query hook.
 */
export const getMeCall = defineCall('GET', '/api/me', import.meta.env.DEV && MeResponse);

export async function getMe(): Promise<CurrentUser> {
  return (await callApi(getMeCall)).user;
}
