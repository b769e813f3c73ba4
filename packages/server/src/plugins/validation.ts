import { ApiErrors } from '@rpm/contracts';
import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

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
 */
export function installValidators(app: FastifyInstance): void {
  const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));
  const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema),
  );
}

/** True when any string in the value (keys included) holds a NUL character. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
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
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      throw badRequest(ApiErrors.nulCharacter);
    }
  });
}
