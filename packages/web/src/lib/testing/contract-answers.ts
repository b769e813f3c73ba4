import type { SetupServer } from 'msw/node';
import type { ApiCall } from '../../api/client.ts';
import { contractDifferences } from '../../api/contract-check.ts';

/*
 * Every call the web makes is declared once in src/api (defineCall). The test server checks each
 * answer its handlers give against the same contract schema, so that a fixture drifting from the
 * contract fails the test that uses it instead of testing a shape the server never sends.
 */
const callModules = import.meta.glob<Record<string, unknown>>(
  // Test files are left out: importing one would run its tests in every file that checks answers.
  ['../../api/**/*.ts', '!../../api/**/*.test.ts'],
  { eager: true },
);

function isApiCall(value: unknown): value is ApiCall {
  return (
    typeof value === 'object' &&
    value !== null &&
    'method' in value &&
    'path' in value &&
    'answer' in value &&
    typeof value.path === 'string' &&
    value.path.startsWith('/api/')
  );
}

interface KnownCall {
  call: ApiCall;
  pattern: RegExp;
}

const knownCalls: KnownCall[] = Object.values(callModules)
  .flatMap((module) => Object.values(module).filter(isApiCall))
  .map((call) => ({
    call,
    pattern: new RegExp(`^${call.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
  }));

/** The declared call a request is for, if any. */
export function callFor(method: string, pathname: string): ApiCall | undefined {
  return knownCalls.find(({ call, pattern }) => call.method === method && pattern.test(pathname))?.call;
}

/**
 * Why a handler's answer breaks the contract, or null when it keeps it. Only successful answers
 * of /api/ are checked: refusals carry the common error body, and other hosts (the user pool,
 * app-config.json) are not the portal API.
 */
export function contractBreach(method: string, url: string, status: number, body: unknown): string | null {
  const { pathname } = new URL(url, 'http://localhost');
  if (!pathname.startsWith('/api/') || status < 200 || status > 299) return null;
  const what = `${method} ${pathname} (${status})`;
  const call = callFor(method, pathname);
  if (!call) return `${what}: no call in src/api declares this endpoint`;
  if (!call.answer) return status === 204 || body === undefined ? null : `${what}: answers a body, none is declared`;
  const differences = contractDifferences(call.answer, body);
  return differences ? `${what}: the test answer breaks the contract: ${differences}` : null;
}

/** Reads a mocked response's JSON body without consuming it. */
async function answerBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/*
 * The checks read each body asynchronously, so they are collected as the answers go out and
 * awaited after each test (vitest.setup.ts).
 */
const answerChecks: Promise<string | null>[] = [];

/** Checks every answer `server`'s handlers give against the contract of the call it answers. */
export function watchAnswers(server: SetupServer): SetupServer {
  server.events.on('response:mocked', ({ request, response }) => {
    answerChecks.push(
      answerBody(response).then((body) => contractBreach(request.method, request.url, response.status, body)),
    );
  });
  return server;
}

/** Fails the current test when one of its handlers answered a shape its contract does not allow. */
export async function checkAnswers(): Promise<void> {
  const breaches = (await Promise.all(answerChecks.splice(0))).filter((b): b is string => b !== null);
  if (breaches.length) throw new Error(`Test answers broke the API contract:\n${breaches.join('\n')}`);
}
