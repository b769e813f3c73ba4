import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, so that `./.data/` means the same place whichever workspace npm runs us from. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Port of the embedded PostgreSQL; a free one is picked at each start when unset. */
  embeddedPgPort: number | undefined;
  logLevel: string;
  webDist: string;
  adminEmail: string;
  adminPassword: string | undefined;
  defaultOrganizationName: string;
  cognito: { userPoolId: string; clientId: string; region: string } | undefined;
  localMfa: 'optional' | 'required';
  redisUrl: string | undefined;
  /** Bearer token a Prometheus scraper presents at /metrics; unset: no /metrics. */
  metricsToken: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  trustProxy: boolean;
  /** Send the session cookie with the Secure flag (on by default when PUBLIC_URL is https). */
  secureCookies: boolean;
  rateLimitPerMinute: number;
  /** The runtime role's connection to an external database; derived from DATABASE_URL when unset. */
  databaseRuntimeUrl: string | undefined;
  /** AUDIT_HMAC_KEY: the audit chain's key; unset, a key file in dataDir. */
  auditHmacKey: Buffer | undefined;
  /** PORTAL_MASTER_KEY: encrypts the user pool's keys; unset, a key file in dataDir. */
  masterKey: Buffer | undefined;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks every setting at once, so an operator sees all mistakes in one go. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };

  const intIn = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };

  const port = intIn('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';

  const publicUrl = (str('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!isHttpUrl(publicUrl)) problems.push(`PUBLIC_URL must be an http(s) URL (got "${publicUrl}")`);

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    problems.push('DATABASE_URL must look like postgres://user:password@host:5432/database');
  }

  const databaseRuntimeUrl = str('DATABASE_RUNTIME_URL');
  if (databaseRuntimeUrl !== undefined && (databaseUrl === undefined || !isPostgresUrl(databaseRuntimeUrl))) {
    problems.push('DATABASE_RUNTIME_URL must look like postgres://user:password@host:5432/database, with DATABASE_URL set');
  }

  const key = (name: string): Buffer | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    const parsed = parseKey(raw);
    if (!parsed) problems.push(`${name} must be at least 32 random bytes, in hex or base64`);
    return parsed;
  };
  const auditHmacKey = key('AUDIT_HMAC_KEY');
  const masterKey = key('PORTAL_MASTER_KEY');

  const logLevel = str('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const adminEmail = str('PORTAL_ADMIN_EMAIL') ?? 'admin@example.com';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    problems.push(`PORTAL_ADMIN_EMAIL must be an email address (got "${adminEmail}")`);
  }

  const cognitoVars = ['COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID', 'AWS_REGION'] as const;
  const setCognito = cognitoVars.filter((n) => str(n) !== undefined);
  let cognito: Config['cognito'];
  // AWS_REGION alone is common in cloud environments and must not switch the pool mode.
  if (str('COGNITO_USER_POOL_ID') !== undefined || str('COGNITO_CLIENT_ID') !== undefined) {
    if (setCognito.length !== cognitoVars.length) {
      problems.push(`Cognito mode needs all of ${cognitoVars.join(', ')}`);
    } else {
      cognito = {
        userPoolId: str('COGNITO_USER_POOL_ID')!,
        clientId: str('COGNITO_CLIENT_ID')!,
        region: str('AWS_REGION')!,
      };
      if (!/^[\w-]+_[0-9a-zA-Z]+$/.test(cognito.userPoolId)) {
        problems.push('COGNITO_USER_POOL_ID must look like us-east-1_AbCdEf123');
      }
    }
  }

  const localMfa = str('LOCAL_POOL_MFA') ?? 'optional';
  if (localMfa !== 'optional' && localMfa !== 'required') {
    problems.push('LOCAL_POOL_MFA must be "optional" or "required"');
  }

  const redisUrl = str('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push('REDIS_URL must look like redis://host:6379');
  }
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters');
  }
  const smtpUrl = str('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    problems.push('SMTP_URL must look like smtp://user:pass@host:587');
  }

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    if (!['true', 'false', '1', '0'].includes(raw)) {
      problems.push(`${name} must be true or false`);
      return fallback;
    }
    return raw === 'true' || raw === '1';
  };

  const config: Config = {
    port,
    host,
    publicUrl,
    databaseUrl,
    dataDir: path.resolve(REPO_ROOT, str('DATA_DIR') ?? '.data'),
    embeddedPgPort: str('EMBEDDED_PG_PORT') === undefined ? undefined : intIn('EMBEDDED_PG_PORT', 0, 1, 65535),
    logLevel,
    webDist: path.resolve(REPO_ROOT, str('WEB_DIST') ?? 'packages/web/dist'),
    adminEmail,
    adminPassword: str('PORTAL_ADMIN_PASSWORD'),
    defaultOrganizationName: str('PORTAL_ORG_NAME') ?? 'Default Clinic',
    cognito,
    localMfa: localMfa === 'required' ? 'required' : 'optional',
    redisUrl,
    metricsToken,
    smtpUrl,
    mailFrom: str('MAIL_FROM') ?? 'RPM Portal <no-reply@localhost>',
    trustProxy: bool('TRUST_PROXY', false),
    secureCookies: bool('SECURE_COOKIES', publicUrl.startsWith('https://')),
    rateLimitPerMinute: intIn('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    databaseRuntimeUrl,
    auditHmacKey,
    masterKey,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** A key given in hex or base64 (standard or URL-safe): at least 32 bytes, else undefined. */
export function parseKey(raw: string): Buffer | undefined {
  const text = raw.trim();
  const bytes = /^(?:[0-9a-fA-F]{2})+$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined;
  return bytes && bytes.length >= 32 ? bytes : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function isPostgresUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '' && u.pathname.length > 1;
  } catch {
    return false;
  }
}
