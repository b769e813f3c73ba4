import type { Static, TProperties, TSchema } from 'typebox';
import type { Validator } from 'typebox/compile';

/**
 * The Cognito JSON protocol in one place: the error shape (`{__type, message}`, status 400 like
 * Cognito), the body's framing, and the check of a body against its operation's schema, which
 * refuses with Cognito's InvalidParameterException. Nothing here knows about users.
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

/**
 * A JSON null is an absent field, as with Cognito: removed (in objects, at any depth) before the
 * schema check, so that the schemas say "optional" once.
 */
function withoutNulls(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const out: Body = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

/**
 * Checks a body against its operation's schema and returns it typed, or refuses with the first
 * problem in Cognito's words ("Missing required parameter Username", "Limit must be from 1 to
 * 60"). The message names the field, never its value: input is not echoed.
 */
export function checkBody<S extends TSchema>(validator: Validator<TProperties, S>, body: Body): Static<S> {
  const value = withoutNulls(body);
  // The validator has just proven the shape that Static<S> names.
  if (validator.Check(value)) return value as Static<S>;
  const [problem] = validator.Errors(value);
  const path =
    problem?.keyword === 'required'
      ? [(problem.params as { requiredProperties: string[] }).requiredProperties[0] ?? '']
      : (problem?.instancePath ?? '').split('/').slice(1);
  throw Errors.invalidParameter(problemMessage(validator.Type(), value, path));
}

interface SchemaShape {
  type?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, SchemaShape>;
  patternProperties?: Record<string, SchemaShape>;
  anyOf?: Array<{ const?: unknown }>;
}

function problemMessage(schema: TSchema, value: unknown, path: string[]): string {
  let shape = schema as SchemaShape;
  let current = value;
  let name = '';
  for (const segment of path) {
    const next: SchemaShape | undefined = shape.properties?.[segment];
    if (!next) break; // a map's entry: the map is what is wrong
    name = segment;
    shape = next;
    current = isRecord(current) ? current[segment] : undefined;
  }
  if (current === undefined || (current === '' && shape.minLength)) return `Missing required parameter ${name}`;
  if (shape.anyOf) return `${name} must be ${shape.anyOf.map((s) => String(s.const)).join(' or ')}`;
  switch (shape.type) {
    case 'string':
      return typeof current === 'string' ? `${name} is too long` : `${name} must be a string`;
    case 'boolean':
      return `${name} must be a boolean`;
    case 'integer':
    case 'number':
      return typeof current === 'number' ? `${name} must be from ${shape.minimum} to ${shape.maximum}` : `${name} must be a number`;
    case 'array':
      return `${name} must be a list of name and value pairs`;
    default:
      return shape.patternProperties ? `${name} must be a map of strings` : `${name} must be an object`;
  }
}
