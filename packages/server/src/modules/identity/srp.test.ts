import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  N,
  claimSignature,
  createServerValues,
  createVerifier,
  deriveSessionKey,
  formatTimestamp,
  g,
  modPow,
  padHex,
  parseTimestamp,
  passwordMatches,
  powG,
  powN,
  serverPublicValue,
  signaturesEqual,
} from './srp.ts';
import { loadAmplifySrp, type AmplifySrp } from './test-support/amplify-srp.ts';

const POOL_NAME = 'TestPool42';
const USERNAME = '6f1c7a52-33c4-4d8c-9d0f-2f1f4c2b9a10';
const PASSWORD = 'Correct-Horse-9';

let amplify: AmplifySrp;
beforeAll(async () => {
  amplify = await loadAmplifySrp();
});

/** Runs the client side with Amplify's code for a chosen a, and the server side with ours. */
async function handshake(opts: { a: bigint; b: bigint; salt: string; verifier: string; password?: string }) {
  const { BigInteger, AuthenticationHelper, getSignatureString } = amplify;
  const A = powG(opts.a);
  const helper = new AuthenticationHelper({
    userPoolName: POOL_NAME,
    a: new BigInteger(opts.a.toString(16), 16),
    g: new BigInteger('2', 16),
    A: new BigInteger(A.toString(16), 16),
    N: new BigInteger(N.toString(16), 16),
  });
  const B = serverPublicValue(opts.verifier, opts.b);
  const hkdf = await helper.getPasswordAuthenticationKey({
    username: USERNAME,
    password: opts.password ?? PASSWORD,
    serverBValue: new BigInteger(B.toString(16), 16),
    salt: new BigInteger(opts.salt, 16),
  });
  const secretBlock = randomBytes(48).toString('base64');
  const timestamp = formatTimestamp(new Date());
  const clientSignature = getSignatureString({
    userPoolName: POOL_NAME,
    username: USERNAME,
    challengeParameters: { SECRET_BLOCK: secretBlock },
    dateNow: timestamp,
    hkdf,
  });
  const key = deriveSessionKey({ A, B, b: opts.b, verifierHex: opts.verifier });
  expect(key).not.toBeNull();
  const serverSignature = claimSignature(key!, POOL_NAME, USERNAME, secretBlock, timestamp);
  return { A, B, ok: signaturesEqual(serverSignature, clientSignature) };
}

function leadingZeroByte(value: bigint, bytes: number): boolean {
  // A value of `bytes` bytes whose first byte is zero: padHex is then shorter than the full width.
  return value < 1n << BigInt(8 * bytes - 8);
}

/** A deterministic sequence of exponents, so that the searches below always find the same values. */
function* exponents(seed: number): Generator<bigint> {
  for (let i = 0; ; i++) yield BigInt(`0x${(seed * 7919 + i).toString(16).padStart(4, '0')}${'9e3779b97f4a7c15'.repeat(4)}`);
}

describe('SRP arithmetic', () => {
  it('pads like Amplify: even length, 00 before a set top bit', () => {
    expect(padHex(0x14n)).toBe('14');
    expect(padHex(0xecn)).toBe('00ec');
    expect(padHex(0x1abn)).toBe('01ab');
    expect(padHex(0x8000n)).toBe('008000');
  });

  it('computes powers with OpenSSL exactly as with BigInt', () => {
    const e = BigInt(`0x${randomBytes(32).toString('hex')}`);
    const base = BigInt(`0x${randomBytes(300).toString('hex')}`);
    expect(powG(e)).toBe(modPow(g, e, N));
    expect(powN(base, e)).toBe(modPow(base, e, N));
    expect(powN(1n, e)).toBe(1n);
  });

  it('agrees with the Amplify client for random values', async () => {
    const { salt, verifier } = createVerifier(POOL_NAME, USERNAME, PASSWORD);
    for (let i = 0; i < 3; i++) {
      const { b } = createServerValues(verifier);
      const a = BigInt(`0x${randomBytes(128).toString('hex')}`);
      expect((await handshake({ a, b, salt, verifier })).ok).toBe(true);
    }
  });

  it('refuses a wrong password', async () => {
    const { salt, verifier } = createVerifier(POOL_NAME, USERNAME, PASSWORD);
    const { b } = createServerValues(verifier);
    const a = BigInt(`0x${randomBytes(128).toString('hex')}`);
    expect((await handshake({ a, b, salt, verifier, password: 'Wrong-Horse-9' })).ok).toBe(false);
  });

  it('agrees when B is shorter than N (its first byte is zero)', async () => {
    const { salt, verifier } = createVerifier(POOL_NAME, USERNAME, PASSWORD);
    let b = 0n;
    for (const candidate of exponents(1)) {
      // Shorter even after the 00 that a set top bit would add: a fixed 384-byte encoding differs.
      if (padHex(serverPublicValue(verifier, candidate)).length < 768) {
        b = candidate;
        break;
      }
    }
    const a = BigInt(`0x${'5a'.repeat(128)}`);
    const result = await handshake({ a, b, salt, verifier });
    expect(padHex(result.B).length).toBeLessThan(768);
    expect(result.ok).toBe(true);
  });

  it('agrees when u starts with a zero byte', async () => {
    const { salt, verifier } = createVerifier(POOL_NAME, USERNAME, PASSWORD);
    const b = BigInt(`0x${'3c'.repeat(32)}`);
    const B = serverPublicValue(verifier, b);
    const { createHash } = await import('node:crypto');
    let a = 0n;
    for (const candidate of exponents(2)) {
      const u = createHash('sha256').update(Buffer.from(padHex(powG(candidate)) + padHex(B), 'hex')).digest();
      if (u[0] === 0) {
        a = candidate;
        break;
      }
    }
    expect((await handshake({ a, b, salt, verifier })).ok).toBe(true);
  });

  it('agrees when S starts with a zero byte', async () => {
    const { salt, verifier } = createVerifier(POOL_NAME, USERNAME, PASSWORD);
    const a = BigInt(`0x${'71'.repeat(128)}`);
    const A = powG(a);
    const { createHash } = await import('node:crypto');
    const v = BigInt(`0x${verifier}`);
    let b = 0n;
    for (const candidate of exponents(3)) {
      const B = serverPublicValue(verifier, candidate);
      const u = BigInt(`0x${createHash('sha256').update(Buffer.from(padHex(A) + padHex(B), 'hex')).digest('hex')}`);
      const S = powN((A * powN(v, u)) % N, candidate);
      if (leadingZeroByte(S, 384)) {
        b = candidate;
        break;
      }
    }
    expect((await handshake({ a, b, salt, verifier })).ok).toBe(true);
  });

  it('checks a clear password against the stored verifier', () => {
    const { salt, verifier } = createVerifier(POOL_NAME, USERNAME, PASSWORD);
    expect(passwordMatches(POOL_NAME, USERNAME, PASSWORD, salt, verifier)).toBe(true);
    expect(passwordMatches(POOL_NAME, USERNAME, `${PASSWORD}x`, salt, verifier)).toBe(false);
  });

  it('reads back the client timestamp format exactly', () => {
    const d = new Date(Date.UTC(2025, 0, 5, 3, 4, 5));
    expect(formatTimestamp(d)).toBe('Sun Jan 5 03:04:05 UTC 2025');
    expect(parseTimestamp('Sun Jan 5 03:04:05 UTC 2025')?.getTime()).toBe(d.getTime());
    expect(parseTimestamp('Sun Jan 05 03:04:05 UTC 2025')).toBeNull();
    expect(parseTimestamp('Mon Jan 5 03:04:05 UTC 2025')).toBeNull();
  });
});
