/** The parts of a TypeBox form schema (see `textRule` in the contracts) that carry its rules. */
interface FormSchema {
  properties?: Record<string, FormSchema>;
  items?: FormSchema;
  /** Where a rule of a whole object (e.g. "passwords match") is reported, relative to it. */
  errorAt?: string;
  '~refine'?: { check(value: unknown): boolean; error(value: unknown): string }[];
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

function collect(schema: FormSchema, value: unknown, path: string, found: Map<string, string>) {
  if (schema.properties && value && typeof value === 'object') {
    for (const [key, property] of Object.entries(schema.properties)) {
      collect(property, (value as Record<string, unknown>)[key], join(path, key), found);
    }
  }
  if (schema.items && Array.isArray(value))
    value.forEach((item, index) => collect(schema.items!, item, join(path, index), found));
  const failed = schema['~refine']?.find((rule) => !rule.check(value));
  const at = schema.errorAt ? join(path, schema.errorAt) : path;
  // A field's own rule is reported before a rule of the object it belongs to.
  if (failed && !found.has(at)) found.set(at, failed.error(value));
}

/**
 * Each failing field's message, keyed by its path ("insurances.0.type"): the first failing rule
 * of the field, in the order the schema lists them.
 *
 * Why not TypeBox's `Value.Errors` (or the typebox resolver of `@hookform/resolvers`, which
 * imports it and the compiler): that engine is about 33 kB compressed, more than the whole
 * headroom of the sign-in and patient pages' size budgets. A form's values are the text its own
 * inputs produce, so the types need no checking; what needs checking are the refinements, which
 * carry the rules and the spec's messages, and that is all this walks.
 */
export function formErrors(schema: object, values: unknown): Map<string, string> {
  const found = new Map<string, string>();
  collect(schema as FormSchema, values, '', found);
  return found;
}
