import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/\.data$/);
    expect(c.adminEmail).toBe('admin@example.com');
    expect(c.cognito).toBeUndefined();
    expect(c.secureCookies).toBe(false);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a whole number from 0 to 65535 \(got "abc"\)/],
    [{ PORT: '70000' }, /PORT must be a whole number/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must look like postgres:\/\//],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must look like/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ PORTAL_ADMIN_EMAIL: 'nobody' }, /PORTAL_ADMIN_EMAIL must be an email address/],
    [{ COGNITO_USER_POOL_ID: 'us-east-1_abc' }, /Cognito mode needs all of/],
    [{ LOCAL_POOL_MFA: 'sometimes' }, /LOCAL_POOL_MFA must be/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must look like/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrowError(message);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', DATABASE_URL: 'y' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toHaveLength(2);
    }
  });

  it('switches to Cognito only with pool id and client id, and secures cookies behind https', () => {
    const c = loadConfig({
      COGNITO_USER_POOL_ID: 'eu-west-1_AbC123',
      COGNITO_CLIENT_ID: 'client',
      AWS_REGION: 'eu-west-1',
      PUBLIC_URL: 'https://rpm.example.org/',
    });
    expect(c.cognito).toEqual({ userPoolId: 'eu-west-1_AbC123', clientId: 'client', region: 'eu-west-1' });
    expect(c.publicUrl).toBe('https://rpm.example.org');
    expect(c.secureCookies).toBe(true);
    expect(loadConfig({ AWS_REGION: 'eu-west-1' }).cognito).toBeUndefined();
  });
});
