/**
 * The Cognito JSON protocol in one place: the error shape (`{__type, message}`, status 400 like
 * Cognito) and typed readers for the loosely typed request bodies. Nothing here knows about users.
 */

export const AMZ_JSON = 'application/x-amz-json-1.1';
export const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
    this.name = type;
  }
}

export const Errors = {
  notAuthorized: (message = 'Incorrect username or password.') => new CognitoError('NotAuthorizedException', message),
  userDisabled: () => new CognitoError('NotAuthorizedException', 'User is disabled.'),
  passwordAttemptsExceeded: () => new CognitoError('NotAuthorizedException', 'Password attempts exceeded'),
  tooManyRequests: () => new CognitoError('TooManyRequestsException', 'Too many requests. Try again later.'),
  limitExceeded: () => new CognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
  invalidParameter: (message: string) => new CognitoError('InvalidParameterException', message),
  invalidPassword: () =>
    new CognitoError(
      'InvalidPasswordException',
      'Password does not conform to policy: at least 8 characters with a lowercase letter, an uppercase letter, a number and a special character.',
    ),
  userNotFound: (message = 'User does not exist.') => new CognitoError('UserNotFoundException', message),
  usernameExists: () => new CognitoError('UsernameExistsException', 'An account with the given email already exists.'),
  codeMismatch: () => new CognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.'),
  expiredCode: () => new CognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
  invalidSession: () => new CognitoError('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
  resourceNotFound: (message: string) => new CognitoError('ResourceNotFoundException', message),
  unknownOperation: () => new CognitoError('UnknownOperationException', 'Unknown operation.'),
  unrecognizedClient: () => new CognitoError('UnrecognizedClientException', 'The security token included in the request is invalid.'),
  internal: () => new CognitoError('InternalErrorException', 'Internal error.', 500),
};

export type Body = Record<string, unknown>;

/** Accepts the body however a content-type parser left it (raw bytes, text or parsed JSON). */
export function parseBody(body: unknown): { json: Body; raw: Buffer | null } {
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    const raw = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    if (raw.length === 0) return { json: {}, raw };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new CognitoError('SerializationException', 'The request body is not valid JSON.');
    }
    if (!isRecord(parsed)) throw new CognitoError('SerializationException', 'The request body must be an object.');
    refuseControlCharacters(parsed);
    return { json: parsed, raw };
  }
  if (body === undefined || body === null) return { json: {}, raw: null };
  if (!isRecord(body)) throw new CognitoError('SerializationException', 'The request body must be an object.');
  refuseControlCharacters(body);
  return { json: body, raw: null };
}

// C0 controls (NUL included) and DEL. No field of the protocol may hold one: PostgreSQL text
// cannot store a NUL, and a user name or address with a control character is never genuine.
function isControlText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function hasControlCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isControlText(value);
  if (depth > 32) return true;
  if (value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) {
    if (isControlText(k) || hasControlCharacter(v, depth + 1)) return true;
  }
  return false;
}

/** Refused before any operation runs, like Cognito's own parameter validation: a 400, never a 500. */
function refuseControlCharacters(body: Body): void {
  if (hasControlCharacter(body)) throw Errors.invalidParameter('Parameters must not contain control characters.');
}

function isRecord(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requiredString(body: Body, name: string, maxLength = 2048): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length === 0) throw Errors.invalidParameter(`Missing required parameter ${name}`);
  if (value.length > maxLength) throw Errors.invalidParameter(`${name} is too long`);
  return value;
}

export function optionalString(body: Body, name: string, maxLength = 2048): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw Errors.invalidParameter(`${name} must be a string`);
  if (value.length > maxLength) throw Errors.invalidParameter(`${name} is too long`);
  return value;
}

export function optionalBoolean(body: Body, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw Errors.invalidParameter(`${name} must be a boolean`);
  return value;
}

export function optionalNumber(body: Body, name: string): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw Errors.invalidParameter(`${name} must be a number`);
  return value;
}

/** A map of strings such as AuthParameters or ChallengeResponses. */
export function stringMap(body: Body, name: string): Record<string, string> {
  const value = body[name];
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw Errors.invalidParameter(`${name} must be a map`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export function optionalRecord(body: Body, name: string): Body | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw Errors.invalidParameter(`${name} must be an object`);
  return value;
}

/** UserAttributes: [{Name, Value}] into a map. */
export function attributeList(body: Body, name: string): Record<string, string> {
  const value = body[name];
  if (value === undefined || value === null) return {};
  if (!Array.isArray(value)) throw Errors.invalidParameter(`${name} must be a list`);
  const out: Record<string, string> = {};
  for (const item of value) {
    if (isRecord(item) && typeof item.Name === 'string' && typeof item.Value === 'string') out[item.Name] = item.Value;
  }
  return out;
}
