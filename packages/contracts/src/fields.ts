import { Type, type Static } from 'typebox';
import { IsoDate } from './common.ts';
import { MAX_PAGE_LIMIT } from './constants.ts';

/** Field schemas shared by the patient resources' answers and request bodies. */
export const PersonName = Type.String({ minLength: 1, maxLength: 100 });
export const OptionalText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);

/** Free text a form may send empty: the server stores '' as null. */
export const InputText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);
export const InputDate = Type.Union([IsoDate, Type.Literal(''), Type.Null()]);

/** `limit` (default 10, at most 100) and `offset` (default 0) of the paged patient lists. */
export const PatientPageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: 10 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type PatientPageQuery = Static<typeof PatientPageQuery>;

/** Newest first; `total` counts every item of the patient, for the table's pager. */
export const PageOf = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer() });
