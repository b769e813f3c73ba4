import { ReadingLimits, UNMATCHED_QUOTA_PER_SOURCE, UNMATCHED_RETENTION_DAYS } from '@rpm/contracts';
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
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY=true would let any client choose its own address/],
    [{ TRUST_PROXY: '11' }, /TRUST_PROXY must be a number of proxies from 0 to 10/],
    [{ TRUST_PROXY: '0.0.0.0/0' }, /TRUST_PROXY must be a number of proxies or a comma-separated list/],
    [{ TRUST_PROXY: '10.0.0.1, proxy.internal' }, /bad: "proxy.internal"/],
    [{ REQUEST_TIMEOUT_MS: '10' }, /REQUEST_TIMEOUT_MS must be a whole number from 1000 to 600000/],
    [{ READING_MAX_AGE_DAYS: '0' }, /READING_MAX_AGE_DAYS must be a whole number from 1 to 3650/],
    [{ UNMATCHED_QUOTA_PER_SOURCE: '1e4' }, /UNMATCHED_QUOTA_PER_SOURCE must be a whole number/],
    [{ UNMATCHED_RETENTION_DAYS: '-1' }, /UNMATCHED_RETENTION_DAYS must be a whole number from 1 to 3650/],
    // Audit records are kept at least six years (45 CFR 164.316(b)(2)(i)).
    [{ AUDIT_RETENTION_MONTHS: '71' }, /AUDIT_RETENTION_MONTHS must be a whole number from 72 to 1200/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrowError(message);
  });

  it('bounds device data: reading age, unmatched quota and retention, from the contracts unless set', () => {
    expect(loadConfig({}).ingestion).toEqual({
      readingMaxAgeDays: ReadingLimits.maxAgeDays,
      unmatchedQuota: UNMATCHED_QUOTA_PER_SOURCE,
      unmatchedRetentionDays: UNMATCHED_RETENTION_DAYS,
    });
    expect(
      loadConfig({ READING_MAX_AGE_DAYS: '14', UNMATCHED_QUOTA_PER_SOURCE: '500', UNMATCHED_RETENTION_DAYS: '7' })
        .ingestion,
    ).toEqual({ readingMaxAgeDays: 14, unmatchedQuota: 500, unmatchedRetentionDays: 7 });
  });

  it('keeps audit months forever unless AUDIT_RETENTION_MONTHS says otherwise', () => {
    expect(loadConfig({}).partitions).toEqual({ auditRetentionMonths: undefined });
    expect(loadConfig({ AUDIT_RETENTION_MONTHS: '84' }).partitions).toEqual({ auditRetentionMonths: 84 });
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

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses, and trusts nothing by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      'fd00::/8',
    ]);
  });

  it('sets every HTTP timeout, the header limit within the request limit', () => {
    const t = loadConfig({}).timeouts;
    expect(t).toEqual({ requestMs: 30_000, headersMs: 15_000, connectionMs: 70_000, keepAliveMs: 65_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '2000' }).timeouts).toMatchObject({ requestMs: 2000, headersMs: 2000 });
  });
});
