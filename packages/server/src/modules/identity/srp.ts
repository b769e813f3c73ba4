import { createDiffieHellman, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The server half of Cognito's SRP-6a (the exact variant Amplify's client speaks): RFC 5054's
 * 3072-bit group, SHA-256, k = H(N | g), x = H(salt | H(poolName | username | ":" | password)),
 * a session key derived with the "Caldera Derived Key" HKDF step, and a claim signature that is an
 * HMAC over poolName | username | secretBlock | timestamp.
 *
 * Every number that is hashed goes through `padHex`, byte for byte as the client does it (even
 * length, and a 00 byte in front when the top bit is set). Any other encoding (for example a fixed
 * 384-byte B) disagrees with the client whenever a value happens to start with a zero byte.
 */

const N_HEX =
  'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
  'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
  'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
  '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
  'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
  '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
  'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
  'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF';

export const N = BigInt(`0x${N_HEX}`);
export const g = 2n;
const N_BYTES = Buffer.from(N_HEX, 'hex');

/** Amplify's getPaddedHex for non-negative values: the hex of Java's BigInteger.toByteArray(). */
export function padHex(value: bigint): string {
  if (value < 0n) throw new Error('SRP values are never negative');
  let hex = value.toString(16);
  if (hex.length % 2 !== 0) hex = `0${hex}`;
  if (/^[89a-f]/i.test(hex)) hex = `00${hex}`;
  return hex;
}

function hexToBigInt(hex: string): bigint {
  return hex.length === 0 ? 0n : BigInt(`0x${hex}`);
}

function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

function hashPaddedHex(hex: string): bigint {
  return hexToBigInt(sha256(Buffer.from(hex, 'hex')).toString('hex'));
}

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    e >>= 1n;
    b = (b * b) % modulus;
  }
  return result;
}

/**
 * Exponentiation modulo N through OpenSSL's Diffie-Hellman, several times faster than BigInt.
 * The group is always created with generator 2 (another generator makes OpenSSL check the group,
 * which takes seconds); other bases go through computeSecret, which is base^private mod N.
 */
function dhWith(exponent: bigint) {
  const dh = createDiffieHellman(N_BYTES, Buffer.from([2]));
  dh.setPrivateKey(Buffer.from(padHex(exponent), 'hex'));
  return dh;
}

export function powG(exponent: bigint): bigint {
  const dh = dhWith(exponent);
  dh.generateKeys();
  return hexToBigInt(dh.getPublicKey('hex'));
}

export function powN(base: bigint, exponent: bigint): bigint {
  const reduced = base % N;
  // OpenSSL refuses "public keys" outside 1 < y < N-1; those bases are left to BigInt.
  if (reduced <= 1n || reduced >= N - 1n) return modPow(reduced, exponent, N);
  return hexToBigInt(dhWith(exponent).computeSecret(Buffer.from(padHex(reduced), 'hex')).toString('hex'));
}

export const k = hashPaddedHex(padHex(N) + padHex(g));

/** Only the part after the underscore of the pool id takes part in the SRP hashes. */
export function poolNameOf(poolId: string): string {
  return poolId.split('_')[1] ?? '';
}

function passwordExponent(poolName: string, username: string, password: string, saltHex: string): bigint {
  const inner = sha256(`${poolName}${username}:${password}`).toString('hex');
  return hashPaddedHex(padHex(hexToBigInt(saltHex)) + inner);
}

/** A fresh salt and the verifier v = g^x for a password: all the pool ever stores of it. */
export function createVerifier(
  poolName: string,
  username: string,
  password: string,
): { salt: string; verifier: string } {
  // 16 random bytes, written without sign ambiguity, like the salts Cognito hands out.
  const salt = padHex(hexToBigInt(randomBytes(16).toString('hex')));
  return { salt, verifier: verifierFor(poolName, username, password, salt) };
}

export function verifierFor(poolName: string, username: string, password: string, saltHex: string): string {
  return padHex(powG(passwordExponent(poolName, username, password, saltHex)));
}

/** Compares a password with a stored verifier (ChangePassword sends the old password in clear). */
export function passwordMatches(
  poolName: string,
  username: string,
  password: string,
  saltHex: string,
  verifierHex: string,
): boolean {
  const candidate = Buffer.from(verifierFor(poolName, username, password, saltHex), 'hex');
  const stored = Buffer.from(verifierHex, 'hex');
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}

export function randomPrivateValue(): bigint {
  return hexToBigInt(randomBytes(32).toString('hex'));
}

/** B = k*v + g^b mod N, with b either random or (tests) chosen by the caller. */
export function serverPublicValue(verifierHex: string, b: bigint): bigint {
  const v = hexToBigInt(verifierHex);
  return (k * v + powG(b)) % N;
}

export function createServerValues(
  verifierHex: string,
  pickB: () => bigint = randomPrivateValue,
): { b: bigint; B: bigint } {
  for (;;) {
    const b = pickB();
    const B = serverPublicValue(verifierHex, b);
    if (B % N !== 0n) return { b, B };
  }
}

export function parseClientValue(hex: string): bigint | null {
  if (!/^[0-9a-fA-F]{1,1024}$/.test(hex)) return null;
  const A = hexToBigInt(hex);
  // A ≡ 0 would let a client force S = 0 without knowing the password.
  return A % N === 0n ? null : A;
}

/** The 16-byte key both sides derive; the client signs its claim with it. */
export function deriveSessionKey(params: { A: bigint; B: bigint; b: bigint; verifierHex: string }): Buffer | null {
  const { A, B, b } = params;
  const u = hashPaddedHex(padHex(A) + padHex(B));
  if (u === 0n) return null;
  const v = hexToBigInt(params.verifierHex);
  const S = powN((A * powN(v, u)) % N, b);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex')).update(Buffer.from(padHex(S), 'hex')).digest();
  const info = Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]);
  return createHmac('sha256', prk).update(info).digest().subarray(0, 16);
}

/** Base64 HMAC-SHA256 over poolName | username | secretBlock bytes | timestamp. */
export function claimSignature(
  key: Buffer,
  poolName: string,
  username: string,
  secretBlockBase64: string,
  timestamp: string,
): string {
  return createHmac('sha256', key)
    .update(Buffer.concat([
      Buffer.from(poolName, 'utf8'),
      Buffer.from(username, 'utf8'),
      Buffer.from(secretBlockBase64, 'base64'),
      Buffer.from(timestamp, 'utf8'),
    ]))
    .digest('base64');
}

export function signaturesEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'base64');
  const b = Buffer.from(received, 'base64');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The client's timestamp format, `ddd MMM D HH:mm:ss UTC YYYY` (day of month not padded). */
export function formatTimestamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${WEEKDAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC ${date.getUTCFullYear()}`
  );
}

export function parseTimestamp(value: string): Date | null {
  const m = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) UTC (\d{4})$/.exec(value);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!);
  if (month < 0) return null;
  const date = new Date(Date.UTC(Number(m[7]), month, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
  return Number.isNaN(date.getTime()) || formatTimestamp(date) !== value ? null : date;
}
