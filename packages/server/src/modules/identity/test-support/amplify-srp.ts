import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Amplify's own client-side SRP code, loaded from the installed package, so that our server is
 * checked against the real client arithmetic and not against a second copy of our own. These
 * modules are not in the package's public exports, hence the import by file path (tests only).
 */

interface AmplifyBigInteger {
  toString(radix: number): string;
}
interface AmplifyBigIntegerClass {
  new (value: string, radix: number): AmplifyBigInteger;
}
interface AuthenticationHelperInstance {
  A: AmplifyBigInteger;
  getPasswordAuthenticationKey(input: {
    username: string;
    password: string;
    serverBValue: AmplifyBigInteger;
    salt: AmplifyBigInteger;
  }): Promise<Uint8Array>;
}
interface AuthenticationHelperClass {
  new (input: {
    userPoolName: string;
    a: AmplifyBigInteger;
    g: AmplifyBigInteger;
    A: AmplifyBigInteger;
    N: AmplifyBigInteger;
  }): AuthenticationHelperInstance;
}
type SignatureFn = (input: {
  userPoolName: string;
  username: string;
  challengeParameters: Record<string, string>;
  dateNow: string;
  hkdf: Uint8Array;
}) => string;

export interface AmplifySrp {
  BigInteger: AmplifyBigIntegerClass;
  AuthenticationHelper: AuthenticationHelperClass;
  getSignatureString: SignatureFn;
}

export async function loadAmplifySrp(): Promise<AmplifySrp> {
  const require = createRequire(import.meta.url);
  const amplifyDir = path.dirname(require.resolve('aws-amplify/package.json'));
  const candidates = [
    path.join(amplifyDir, 'node_modules/@aws-amplify/auth'),
    path.join(amplifyDir, '../@aws-amplify/auth'),
  ];
  const { existsSync } = await import('node:fs');
  const authDir = candidates.find((c) => existsSync(path.join(c, 'package.json')));
  if (!authDir) throw new Error('@aws-amplify/auth not found');
  const srpDir = path.join(authDir, 'dist/esm/providers/cognito/utils/srp');
  const load = async <T>(file: string): Promise<T> =>
    (await import(pathToFileURL(path.join(srpDir, file)).href)) as T;
  const bi = await load<{ default: AmplifyBigIntegerClass }>('BigInteger/BigInteger.mjs');
  const ah = await load<{ default: AuthenticationHelperClass }>('AuthenticationHelper/AuthenticationHelper.mjs');
  const sig = await load<{ getSignatureString: SignatureFn }>('getSignatureString.mjs');
  return { BigInteger: bi.default, AuthenticationHelper: ah.default, getSignatureString: sig.getSignatureString };
}
