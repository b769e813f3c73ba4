import { ApiErrors } from '@rpm/contracts';
import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../kernel/errors.ts';
import { lazyValidator, type LazyCompilation, type Validator } from './lazy-compile.ts';

// ajv-formats is published as CommonJS with a default export.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

const common: Options = {
  allErrors: false,
  useDefaults: true,
  // Unknown fields are refused, never silently dropped: a client sending them has a bug or an intent.
  removeAdditional: false,
  strict: false,
};

/**
 * Two validators: bodies are checked strictly (a string is not a number), while query strings,
 * path parameters and headers, which are always text on the wire, are coerced to their types.
 *
 * Each route's validator is compiled on the route's first request, once (lazy-compile.ts): the
 * same function the start-up compilation built, without its cost at start-up. The two Ajv
 * instances are created on the first compilation too.
 */
export function installValidators(app: FastifyInstance, lazy: LazyCompilation): void {
  let strict: Ajv | undefined;
  let coercing: Ajv | undefined;
  const compile = (schema: object, httpPart: string | undefined): Validator => {
    if (httpPart === 'body') return (strict ??= addFormats(new Ajv({ ...common, coerceTypes: false }))).compile(schema);
    const validate = (coercing ??= addFormats(new Ajv({ ...common, coerceTypes: 'array' }))).compile(schema);
    const numeric = integerProperties(schema);
    if (numeric.length === 0) return validate;
    // Coercion would read "0x10", "1e3", "+5", "05" or " 5" as numbers: the text must be plain
    // decimal digits before it is coerced.
    const checked = Object.assign(
      (data: unknown) => {
        const bad = firstNonDecimal(data, numeric);
        if (bad !== null) {
          const message = `${httpPart}/${bad} must be a whole number written in digits`;
          return { error: Object.assign(new Error(message), { validation: [{ message }] }) };
        }
        const valid = validate(data);
        // Fastify reads a failed check's reasons from the function it was given.
        checked.errors = validate.errors;
        return valid;
      },
      { errors: null as typeof validate.errors },
    );
    return checked;
  };
  app.setValidatorCompiler(({ schema, httpPart, method, url }) =>
    lazyValidator(lazy, `${httpPart ?? 'input'} of ${method} ${url}`, () => compile(schema, httpPart)),
  );
  // A number the schema lets through unbounded reaches PostgreSQL as an out-of-range value (1e308
  // is an integer to JSON Schema) and fails there as a server error; every request number must
  // have both bounds, checked once at start-up rather than found by a caller.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
      const where = unboundedNumber(schema[part], part);
      if (where)
        throw new Error(`route ${String(route.method)} ${route.url}: ${where} is a number without both bounds`);
    }
  });
}

/** The path of the first integer or number in a request schema without a finite minimum and maximum. */
export function unboundedNumber(schema: unknown, path: string): string | null {
  if (schema === null || typeof schema !== 'object') return null;
  const s = schema as Record<string, unknown>;
  const types = [s.type].flat();
  if (
    (types.includes('integer') || types.includes('number')) &&
    !(Number.isFinite(s.minimum ?? s.exclusiveMinimum) && Number.isFinite(s.maximum ?? s.exclusiveMaximum))
  ) {
    return path;
  }
  const children: Array<[string, unknown]> = [];
  for (const [name, sub] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {}))
    children.push([`${path}/${name}`, sub]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const)
    for (const sub of (s[key] as unknown[] | undefined) ?? []) children.push([path, sub]);
  for (const key of ['items', 'additionalProperties', 'not'] as const) children.push([`${path}/*`, s[key]]);
  for (const sub of Object.values((s.patternProperties as Record<string, unknown> | undefined) ?? {}))
    children.push([`${path}/*`, sub]);
  for (const [where, sub] of children) {
    const found = unboundedNumber(sub, where);
    if (found) return found;
  }
  return null;
}

/** Plain decimal integers: no sign, base prefix, exponent, leading zero or white space. */
const DECIMAL_INTEGER = /^(0|[1-9]\d{0,15})$/;

function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'integer')
    .map(([name]) => name);
}

function firstNonDecimal(data: unknown, names: string[]): string | null {
  if (data === null || typeof data !== 'object') return null;
  for (const name of names) {
    const raw = (data as Record<string, unknown>)[name];
    const values = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      if (typeof v === 'string' && !DECIMAL_INTEGER.test(v)) return name;
    }
  }
  return null;
}

/** True when any string in the value (keys included) holds a NUL character. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  // Bodies kept raw (the user pool's JSON): a NUL byte, or one written as a JSON escape.
  if (Buffer.isBuffer(value)) return value.includes(0) || /\\u0000/i.test(value.toString('latin1'));
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  }
  return false;
}

/**
 * PostgreSQL text cannot hold a NUL character, so no input with one can ever be valid: refuse it
 * up front with a 400, for every route, instead of letting the database fail the request.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      done(badRequest(ApiErrors.nulCharacter));
      return;
    }
    done();
  });
}
