import type { RequestHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { watchAnswers } from './contract-answers.ts';

/**
 * MSW's setupServer for web tests: every answer its handlers give is checked against the contract
 * of the call it answers, and a test whose handler breaks one fails.
 */
export function setupTestServer(...handlers: RequestHandler[]): SetupServer {
  return watchAnswers(setupServer(...handlers));
}
