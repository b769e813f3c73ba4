import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@rpm/contracts';
import type { Static, TSchema } from 'typebox';
import { ApiError } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of the portal API: its method, its path template (`:name` segments) and the contract
 * schema of its successful answer. Declared once per call file, so that the fetcher, the
 * development-time answer check and the test server's check share it.
 *
 * The schema is given as `import.meta.env.DEV && Schema`: the production build replaces the flag
 * with false, and the schemas (about 12 kB compressed) stay out of the bundle. `false` alone
 * declares an answer without a body.
 */
export interface ApiCall<Answer extends TSchema = TSchema> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly answer: Answer | false;
}

export function defineCall<const Answer extends TSchema>(
  method: HttpMethod,
  path: string,
  answer: Answer | false,
): ApiCall<Answer> {
  return { method, path, answer };
}

/** What a call answers, typed from its contract schema. */
export type AnswerOf<Call> = Call extends ApiCall<infer Answer> ? Static<Answer> : never;

export interface CallInput {
  /** Values of the path's `:name` segments. */
  params?: Record<string, string | number>;
  /** Query parameters; undefined and empty values are left out. */
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** The request path of `call`: its template filled in, then the query string. */
export function callPath(call: ApiCall, { params = {}, query = {} }: CallInput = {}): string {
  const path = call.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${call.method} ${call.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener | null = null;
/** The session layer registers here: a 401 while signed in ends the session (spec section 4). */
export function setUnauthorizedListener(listener: UnauthorizedListener | null): void {
  onUnauthorized = listener;
}

/**
 * Every call to the portal API goes through here: same-origin cookie, the CSRF header on every
 * request, JSON in and out, one place that reacts to 401 and, in development and tests, one place
 * that checks each answer against its contract.
 */
export async function callApi<Call extends ApiCall>(call: Call, input: CallInput = {}): Promise<AnswerOf<Call>> {
  const path = callPath(call, input);
  // A POST without a body still sends `{}`: the server parses every POST as JSON.
  const body = input.body ?? (call.method === 'POST' ? {} : undefined);
  const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_HEADER_VALUE, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method: call.method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as AnswerOf<Call>;
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    /* non-JSON answer: keep data undefined */
  }
  if (!res.ok) {
    if (res.status === 401 && call.path !== '/api/token') onUnauthorized?.();
    // Without a message from the server (a proxy's 502, say) the message stays empty, so that
    // errorMessage() shows the spec's own fallback text for the action.
    const message =
      data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' ? data.message : '';
    throw new ApiError(res.status, message);
  }
  // Development and tests only. The validator is imported here, not at the top: the production
  // bundle drops this branch and, with it, every trace of the validator (TypeBox's value module
  // has top-level code a static import would keep even when unused).
  if (import.meta.env.DEV && call.answer) {
    const { assertContract } = await import('./contract-check.ts');
    assertContract(call.answer, data, `${call.method} ${call.path}`);
  }
  return data as AnswerOf<Call>;
}
