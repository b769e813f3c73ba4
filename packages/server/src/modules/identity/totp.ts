import { generate, generateSecret, verify } from 'otplib';

/**
 * RFC 6238 TOTP as authenticator apps and Cognito use it: SHA-1, 6 digits, 30-second steps,
 * base32 secret, one step of clock drift either way. A code is accepted once: the caller keeps the
 * last accepted time step and passes it back.
 */

const PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  // 20 bytes (160 bits), the size RFC 4226 recommends and Cognito hands out.
  return generateSecret({ length: 20 });
}

export async function checkTotp(
  secret: string,
  code: string,
  lastStep: number | null,
  now: Date = new Date(),
): Promise<{ valid: true; step: number } | { valid: false }> {
  if (!/^\d{6}$/.test(code)) return { valid: false };
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: PERIOD_SECONDS,
    epochTolerance: PERIOD_SECONDS,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
  });
  return result.valid && 'timeStep' in result ? { valid: true, step: result.timeStep } : { valid: false };
}

/** The code an authenticator app shows at `at` (tests, and nothing else, need this). */
export function totpCode(secret: string, at: Date = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000), period: PERIOD_SECONDS });
}
