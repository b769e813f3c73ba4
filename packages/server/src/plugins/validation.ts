import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

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
