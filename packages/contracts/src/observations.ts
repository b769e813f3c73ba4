import { Type, type Static } from 'typebox';
import { Timestamp, valuesByName } from './common.ts';
import { MAX_PAGE_LIMIT } from './constants.ts';
import { PageOf } from './fields.ts';
import { KIND_NAME_PATTERN, MeasurementKindName } from './measurements/registry.ts';
import { ProgramName } from './measurements/programs.ts';

/**
 * Observations of any kind of the measurement registry (GET/POST /api/patients/{id}/observations).
 * The spec's /vitals answer stays as it is (blood pressure and pulse); this one serves every kind.
 * Values are in the kind's canonical UCUM units, keyed by component code; the web converts them to
 * the organization's display units.
 */
export const Observation = Type.Object({
  id: Type.Integer(),
  kind: MeasurementKindName,
  /** When it was measured. */
  created_at: Timestamp,
  components: valuesByName(Type.Number()),
  /** UCUM unit of the kind's primary component. */
  unit: Type.String(),
  /** The device id it came from, or 'manual' for one typed in by staff. */
  source: Type.String(),
});
export type Observation = Static<typeof Observation>;

export const ObservationPage = PageOf(Observation);
export type ObservationPage = Static<typeof ObservationPage>;

export const ObservationQuery = Type.Object(
  {
    kind: MeasurementKindName,
    /** Measured at or after (inclusive). */
    from: Type.Optional(Timestamp),
    /** Measured before (exclusive). */
    to: Type.Optional(Timestamp),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: 10 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ObservationQuery = Static<typeof ObservationQuery>;

/**
 * A reading typed in by staff: its kind, the measured time, and each component's value in `unit`
 * (a UCUM code among the kind's unit choices, e.g. '[lb_av]'; the canonical unit when omitted).
 * Out-of-range values answer 400 with the registry's message and nothing is stored.
 */
/** The widest value a typed-in reading's component may carry before the registry judges it. */
export const TYPED_VALUE_BOUND = 1_000_000_000;

export const ObservationInput = Type.Object(
  {
    kind: MeasurementKindName,
    created_at: Timestamp,
    // A bound far outside every kind's plausible range in any unit: values beyond the range get the
    // registry's message; this only keeps numbers like 1e308 from reaching the arithmetic.
    components: valuesByName(Type.Number({ minimum: -TYPED_VALUE_BOUND, maximum: TYPED_VALUE_BOUND }), {
      keys: KIND_NAME_PATTERN,
      maxProperties: 10,
    }),
    unit: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  },
  { additionalProperties: false },
);
export type ObservationInput = Static<typeof ObservationInput>;

/** The newest observation of each kind the patient has (the panels' "latest"), and the count per kind. */
export const ObservationSummary = Type.Object({
  kinds: Type.Array(
    Type.Object({
      kind: MeasurementKindName,
      total: Type.Integer(),
      latest: Type.Union([Observation, Type.Null()]),
    }),
  ),
});
export type ObservationSummary = Static<typeof ObservationSummary>;

/** A program (built-in or added by an admin): the kinds its patients' pages show first. */
export const ProgramInfo = Type.Object({
  id: ProgramName,
  label: Type.String(),
  kinds: Type.Array(MeasurementKindName),
  built_in: Type.Boolean(),
});
export type ProgramInfo = Static<typeof ProgramInfo>;
export const ProgramList = Type.Object({ items: Type.Array(ProgramInfo) });
export type ProgramList = Static<typeof ProgramList>;

/** PUT /api/patients/{id}/programs: the patient's programs, all of them (an empty list leaves none). */
export const PatientProgramsInput = Type.Object(
  { programs: Type.Array(ProgramName, { maxItems: 20, uniqueItems: true }) },
  { additionalProperties: false },
);
export type PatientProgramsInput = Static<typeof PatientProgramsInput>;
export const PatientPrograms = Type.Object({ programs: Type.Array(ProgramName) });
export type PatientPrograms = Static<typeof PatientPrograms>;

/** An organization's display units: kind -> UCUM code of one of the kind's unit choices. */
export const DisplayUnits = valuesByName(Type.String({ minLength: 1, maxLength: 20 }), { keys: KIND_NAME_PATTERN });
export type DisplayUnits = Static<typeof DisplayUnits>;
export const OrganizationDisplayUnits = Type.Object({ display_units: DisplayUnits }, { additionalProperties: false });
export type OrganizationDisplayUnits = Static<typeof OrganizationDisplayUnits>;

/** POST /api/programs (admins): a new program; its kinds must be kinds of the measurement registry. */
export const ProgramInput = Type.Object(
  {
    id: ProgramName,
    label: Type.String({ minLength: 1, maxLength: 100 }),
    kinds: Type.Array(MeasurementKindName, { maxItems: 20, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type ProgramInput = Static<typeof ProgramInput>;

/** Refusals of the programs API (the JSON `message`). */
export const ProgramErrors = {
  unknownProgram: (id: string) => `Unknown program "${id}".`,
  programExists: (id: string) => `A program "${id}" already exists.`,
  labelRequired: 'A program needs a label.',
} as const;
