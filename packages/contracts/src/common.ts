import { Type, type Static, type TSchema } from 'typebox';

/** Every API error answer: never a stack trace, never SQL. */
export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * PostgreSQL's integer, the type of most ids: the widest whole number a request may send for one.
 * JSON Schema counts 1e308 as an integer, so a bound missing here is a server error there.
 */
export const PG_INTEGER_MAX = 2147483647;

/** The id of a row in a table keyed by integer. */
export const RowId = () => Type.Integer({ minimum: 1, maximum: PG_INTEGER_MAX });

export const IdParam = Type.Object({ id: RowId() }, { additionalProperties: false });
export type IdParam = Static<typeof IdParam>;

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

/** ISO calendar date, YYYY-MM-DD. */
export const IsoDate = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
export const Timestamp = Type.String({ format: 'date-time' });

/**
 * A JSON object of values by name (an observation's components, display units by kind). Written
 * as an object schema, not Type.Record: Record's key machinery would bring TypeBox's whole type
 * system into the browser's first load. `keys`: a pattern every name must match (others refused).
 */
export function valuesByName<T extends TSchema>(value: T, options: { keys?: string; maxProperties?: number } = {}) {
  const { keys, ...rest } = options;
  const shape = keys
    ? { additionalProperties: false, patternProperties: { [keys]: value }, ...rest }
    : { additionalProperties: value, ...rest };
  return Type.Unsafe<Record<string, Static<T>>>(Type.Object({}, shape));
}

export const OkBody = Type.Object({ ok: Type.Literal(true) });
