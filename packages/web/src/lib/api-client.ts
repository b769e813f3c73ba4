import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@rpm/contracts';

/** An API answer that was not 2xx; `message` is the server's own, safe to show in a toast. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener | null = null;
/** The session layer registers here: a 401 while signed in ends the session (spec section 4). */
export function setUnauthorizedListener(listener: UnauthorizedListener | null): void {
  onUnauthorized = listener;
}

/**
 * Every call to the portal API goes through here: same-origin cookie, the CSRF header on every
 * request, JSON in and out, and one place that reacts to 401.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_HEADER_VALUE, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    /* non-JSON answer: keep data undefined */
  }
  if (!res.ok) {
    if (res.status === 401 && path !== '/api/token') onUnauthorized?.();
    // Without a message from the server (a proxy's 502, say) the message stays empty, so that
    // errorMessage() shows the spec's own fallback text for the action.
    const message =
      data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' ? data.message : '';
    throw new ApiError(res.status, message);
  }
  return data as T;
}

export const apiGet = <T>(path: string) => api<T>('GET', path);
export const apiPost = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const apiPut = <T>(path: string, body: unknown) => api<T>('PUT', path, body);

/** The server's message when there is one, else the spec's fallback text. */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}
