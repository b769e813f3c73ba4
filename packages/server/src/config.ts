import net from 'node:net';
import {
  AUDIT_MIN_RETENTION_YEARS,
  ReadingLimits,
  UNMATCHED_QUOTA_PER_SOURCE,
  UNMATCHED_RETENTION_DAYS,
} from '@rpm/contracts';
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
  /**
   * Which proxies' X-Forwarded-For to believe: false (none), a hop count, or proxy addresses and
   * CIDR ranges. Never "everything": a client would then choose its own address.
   */
  trustProxy: false | number | string[];
  /** HTTP timeouts, so that a slow or stalled client cannot hold a connection open. */
  timeouts: ServerTimeouts;
  /** Send the session cookie with the Secure flag (on by default when PUBLIC_URL is https). */
  secureCookies: boolean;
  rateLimitPerMinute: number;
  /** The runtime role's connection to an external database; derived from DATABASE_URL when unset. */
  databaseRuntimeUrl: string | undefined;
  /** AUDIT_HMAC_KEY: the audit chain's key; unset, a key file in dataDir. */
  auditHmacKey: Buffer | undefined;
  /** PORTAL_MASTER_KEY: encrypts the user pool's keys; unset, a key file in dataDir. */
  masterKey: Buffer | undefined;
  /** How much device data the portal takes in and keeps. */
  ingestion: IngestionLimits;
  /**
   * SMART_JWKS_ALLOW_LOOPBACK_HTTP: accept a SMART client's JWKS URL over plain http when its host
   * is this machine (127.0.0.1, ::1, localhost); for tests and local demos only. Off: https only.
   */
  smartJwksAllowLoopbackHttp: boolean;
  /** Monthly partitions of observations and audit records (modules/partitions). */
  partitions: PartitionSettings;
}

export interface PartitionSettings {
  /**
   * AUDIT_RETENTION_MONTHS: audit months older than this are dropped by the daily maintenance;
   * unset keeps them all. Never fewer than six years (the database refuses younger months too).
   */
  auditRetentionMonths: number | undefined;
}

export interface IngestionLimits {
  /**
   * READING_MAX_AGE_DAYS: readings measured longer ago are refused, from device clouds and FHIR
   * alike (a clinic importing a backlog may raise it).
   */
  readingMaxAgeDays: number;
  /** UNMATCHED_QUOTA_PER_SOURCE: unmatched readings one source may have waiting. */
  unmatchedQuota: number;
  /** UNMATCHED_RETENTION_DAYS: unmatched readings received longer ago are deleted. */
  unmatchedRetentionDays: number;
}

export interface ServerTimeouts {
  /** Whole request, headers and body, from its first byte. */
  requestMs: number;
  /** Request headers, from the request's first byte. */
  headersMs: number;
  /** A socket with no traffic at all. */
  connectionMs: number;
  /** An idle keep-alive connection between two requests. */
  keepAliveMs: number;
}

/** A request of this portal is a few KB: 30 s is ample on any real network. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_HEADERS_TIMEOUT_MS = 15_000;
/**
 * Longer than the 60 s idle timeout of common load balancers (AWS ALB, nginx), so that the
 * balancer, not the portal, closes an idle connection and never reuses one the portal has closed.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export const CONNECTION_TIMEOUT_MS = 70_000;
export const MAX_TRUSTED_PROXY_HOPS = 10;

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
    problems.push(
      'DATABASE_RUNTIME_URL must look like postgres://user:password@host:5432/database, with DATABASE_URL set',
    );
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
    trustProxy: parseTrustProxy(str('TRUST_PROXY'), problems),
    timeouts: timeoutsOf(intIn('REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 1000, 600_000)),
    secureCookies: bool('SECURE_COOKIES', publicUrl.startsWith('https://')),
    rateLimitPerMinute: intIn('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    databaseRuntimeUrl,
    auditHmacKey,
    masterKey,
    ingestion: {
      readingMaxAgeDays: intIn('READING_MAX_AGE_DAYS', ReadingLimits.maxAgeDays, 1, 3650),
      unmatchedQuota: intIn('UNMATCHED_QUOTA_PER_SOURCE', UNMATCHED_QUOTA_PER_SOURCE, 0, 10_000_000),
      unmatchedRetentionDays: intIn('UNMATCHED_RETENTION_DAYS', UNMATCHED_RETENTION_DAYS, 1, 3650),
    },
    smartJwksAllowLoopbackHttp: bool('SMART_JWKS_ALLOW_LOOPBACK_HTTP', false),
    partitions: {
      auditRetentionMonths:
        str('AUDIT_RETENTION_MONTHS') === undefined
          ? undefined
          : intIn('AUDIT_RETENTION_MONTHS', 0, AUDIT_MIN_RETENTION_YEARS * 12, 1200),
    },
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

export function timeoutsOf(requestMs: number): ServerTimeouts {
  return {
    requestMs,
    headersMs: Math.min(MAX_HEADERS_TIMEOUT_MS, requestMs),
    connectionMs: CONNECTION_TIMEOUT_MS,
    keepAliveMs: KEEP_ALIVE_TIMEOUT_MS,
  };
}

/**
 * TRUST_PROXY: unset, `false` or `0` trusts no proxy; a number is how many proxies stand in front
 * of the portal (the client address is that many entries from the right of X-Forwarded-For);
 * otherwise a comma-separated list of proxy addresses or CIDR ranges. `true` is refused: it would
 * believe the left-most entry, which the client writes itself.
 */
function parseTrustProxy(raw: string | undefined, problems: string[]): Config['trustProxy'] {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    problems.push(
      'TRUST_PROXY=true would let any client choose its own address; set the number of proxies in front of the portal (e.g. 1) or their addresses (e.g. 10.0.0.0/8)',
    );
    return false;
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_TRUSTED_PROXY_HOPS) {
      problems.push(
        `TRUST_PROXY must be a number of proxies from 0 to ${MAX_TRUSTED_PROXY_HOPS}, or proxy addresses (got "${raw}")`,
      );
      return false;
    }
    return hops;
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0 || entries.length === 0) {
    problems.push(
      `TRUST_PROXY must be a number of proxies or a comma-separated list of IP addresses or CIDR ranges (bad: "${bad.join(', ') || raw}")`,
    );
    return false;
  }
  return entries;
}

function isAddressOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  const maxBits = family === 4 ? 32 : 128;
  const n = Number(bits);
  // A range of every address (/0) is "trust everything" under another name.
  return n >= 1 && n <= maxBits;
}
