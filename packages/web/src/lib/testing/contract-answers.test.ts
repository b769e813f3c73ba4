import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { checkAnswers, contractBreach } from './contract-answers.ts';
import { setupTestServer } from './test-server.ts';

const organization = { id: 1, name: 'North Clinic' };

describe('the contract check of test answers', () => {
  it('accepts an answer that keeps the contract of its call', () => {
    expect(contractBreach('GET', 'http://localhost/api/organizations', 200, [organization])).toBeNull();
    expect(contractBreach('GET', '/api/organizations/3/providers', 200, [{ id: 7, name: 'Dr. Who' }])).toBeNull();
  });

  it('names the call and the field of an answer that breaks it', () => {
    expect(contractBreach('GET', '/api/organizations', 200, { organizations: [organization] })).toMatch(
      /^GET \/api\/organizations \(200\): the test answer breaks the contract: \(root\)/,
    );
    expect(contractBreach('GET', '/api/patients/4', 200, { id: 4 })).toMatch(/GET \/api\/patients\/4 \(200\)/);
  });

  it('refuses an answer for an endpoint no call declares, and leaves refusals and other hosts alone', () => {
    expect(contractBreach('GET', '/api/expire-me', 200, {})).toMatch(/no call in src\/api declares/);
    expect(contractBreach('GET', '/api/organizations', 403, { message: 'Forbidden' })).toBeNull();
    expect(contractBreach('POST', 'http://localhost:3000/cognito', 200, {})).toBeNull();
  });

  it('fails the test whose handler answered a wrong shape', async () => {
    const server = setupTestServer(http.get('/api/organizations', () => HttpResponse.json({ items: [] })));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await fetch('/api/organizations');
      await expect(checkAnswers()).rejects.toThrow(/GET \/api\/organizations \(200\)/);
      server.use(http.get('/api/organizations', () => HttpResponse.json([organization])));
      await fetch('/api/organizations');
      await expect(checkAnswers()).resolves.toBeUndefined();
    } finally {
      server.close();
    }
  });
});
