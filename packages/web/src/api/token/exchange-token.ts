import { MeResponse, type CurrentUser } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';

export const exchangeTokenCall = defineCall('POST', '/api/token', import.meta.env.DEV && MeResponse);

/** Trades the pool's access token for a portal session; the answer already names the user. */
export async function exchangeToken(token: string): Promise<CurrentUser> {
  return (await callApi(exchangeTokenCall, { body: { token } })).user;
}
