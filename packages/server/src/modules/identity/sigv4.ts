import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * Checks the AWS Signature Version 4 of an admin call, as Cognito checks IAM callers: the same
 * signer the SDK used recomputes the signature over exactly the headers the caller signed, with the
 * install's secret, and the two are compared in constant time. A date more than five minutes away
 * is refused so that a captured request cannot be replayed later.
 */

export const SIGNING_REGION = 'local';
export const SIGNING_SERVICE = 'cognito-idp';
const MAX_SKEW_MS = 5 * 60 * 1000;

export interface AdminCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const AUTH_PATTERN =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  return Number.isNaN(d.getTime()) ? null : d;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

export async function verifySigV4(req: SignedRequest, creds: AdminCredentials, now = new Date()): Promise<boolean> {
  const authorization = header(req.headers, 'authorization');
  const amzDate = header(req.headers, 'x-amz-date');
  if (!authorization || !amzDate) return false;
  const m = AUTH_PATTERN.exec(authorization);
  if (!m) return false;
  const [, accessKeyId, scopeDate, region, service, signedHeaderList, signature] = m;
  if (accessKeyId !== creds.accessKeyId || region !== SIGNING_REGION || service !== SIGNING_SERVICE) return false;
  const signingDate = parseAmzDate(amzDate);
  if (!signingDate || Math.abs(now.getTime() - signingDate.getTime()) > MAX_SKEW_MS) return false;
  if (amzDate.slice(0, 8) !== scopeDate) return false;

  const signedHeaders = signedHeaderList!.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) return false;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = header(req.headers, name);
    if (value === undefined) return false;
    headers[name] = value;
  }

  // The signer trusts an x-amz-content-sha256 header as the body's hash; so must it be.
  const claimedHash = headers['x-amz-content-sha256'];
  if (claimedHash !== undefined && claimedHash !== createHash('sha256').update(req.body).digest('hex')) return false;

  const [pathPart, queryPart] = splitUrl(req.url);
  const request = new HttpRequest({
    method: req.method.toUpperCase(),
    protocol: 'http:',
    hostname: headers.host ?? '',
    path: pathPart,
    query: queryPart,
    headers,
    body: req.body,
  });
  const signer = new SignatureV4({
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey },
    region: SIGNING_REGION,
    service: SIGNING_SERVICE,
    sha256: Sha256,
    // Recompute over what the caller sent; never add a checksum header it did not sign.
    applyChecksum: false,
  });
  const signed = await signer.sign(request, {
    signingDate,
    signableHeaders: new Set(signedHeaders),
  });
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
  if (!expected) return false;
  const expectedSignedHeaders = /SignedHeaders=([a-z0-9;-]+)/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
  if (expectedSignedHeaders !== signedHeaderList) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature!, 'hex'));
}

function splitUrl(url: string): [string, Record<string, string | string[]>] {
  const q = url.indexOf('?');
  if (q < 0) return [url, {}];
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    const existing = query[k];
    query[k] = existing === undefined ? v : Array.isArray(existing) ? [...existing, v] : [existing, v];
  }
  return [url.slice(0, q), query];
}
