import { set, type FieldError, type FieldValues, type Resolver } from 'react-hook-form';
import { formErrors } from './form-errors.ts';

/**
 * A react-hook-form resolver checking a form schema built from the contracts' form rules. It
 * answers for the fields asked about (`names`: the field left, or every field in the form on
 * submit) and no others: when an entry is added to a list, react-hook-form asks about the list
 * itself, and the new entry's empty fields must not be marked before they have been visited.
 */
export function schemaResolver<Values extends FieldValues>(schema: object): Resolver<Values> {
  return (values, _context, options) => {
    const asked = options.names ? new Set<string>(options.names) : null;
    const errors = {};
    let failed = false;
    for (const [path, message] of formErrors(schema, values)) {
      if (asked && !asked.has(path)) continue;
      set(errors, path, { type: 'rule', message } satisfies FieldError);
      failed = true;
    }
    return failed ? { values: {}, errors } : { values, errors: {} };
  };
}
