import { Type, type Static } from 'typebox';
import { IsoDate, Timestamp } from './common.ts';

/**
 * Remote patient monitoring billing (CMS Physician Fee Schedule 2026). The thresholds are the
 * rules' numbers, written once: the server's rules, the web's progress bars and the tests use them.
 */
export const BillingCodes = {
  setup: '99453',
  deviceShort: '99445',
  device: '99454',
  managementShort: '99470',
  management: '99457',
  managementExtra: '99458',
} as const;
export type BillingCode = (typeof BillingCodes)[keyof typeof BillingCodes];
/** The order codes are listed in, in the report's totals and the CSV. */
export const BILLING_CODE_ORDER: readonly BillingCode[] = ['99453', '99445', '99454', '99470', '99457', '99458'];

/** Device supply is counted per 30-day period from the patient's first day of monitoring. */
export const BILLING_PERIOD_DAYS = 30;
/** Fewest days with device data for 99445 (and for 99453), and for 99454. */
export const DEVICE_DAYS_SHORT = 2;
export const DEVICE_DAYS_FULL = 16;
/** Minutes of treatment management in a calendar month: 99470 from 10, 99457 from 20, 99458 per further 20. */
export const MANAGEMENT_MINUTES_SHORT = 10;
export const MANAGEMENT_MINUTES_FULL = 20;
export const MANAGEMENT_MINUTES_EXTRA = 20;
/** Days are counted in the organization's time zone; a new organization starts with this one. */
export const DEFAULT_ORGANIZATION_TIME_ZONE = 'America/New_York';

/**
 * The SQLSTATE the database raises when the portal's role changes what a closed month was billed
 * from (tracking time, readings, enrollment, the close itself; migration 0954). The server answers
 * it with 409 and BillingErrors.monthClosed; an ingestion batch counts such a reading as rejected.
 */
export const CLOSED_MONTH_SQLSTATE = 'RPM01';

export const BillingMonth = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });

export const BillingQuery = Type.Object(
  {
    month: BillingMonth,
    organization_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  },
  { additionalProperties: false },
);
export type BillingQuery = Static<typeof BillingQuery>;

export const BillingMonthParam = Type.Object({ month: BillingMonth }, { additionalProperties: false });
export type BillingMonthParam = Static<typeof BillingMonthParam>;

export const BillingCodeUnits = Type.Object({
  code: Type.String(),
  units: Type.Integer({ minimum: 1 }),
  /** The service period the code is for: a 30-day period (device codes) or the calendar month. */
  period_start: IsoDate,
  period_end: IsoDate,
});
export type BillingCodeUnits = Static<typeof BillingCodeUnits>;

export const BillingRow = Type.Object({
  patient_id: Type.Integer(),
  patient_name: Type.String(),
  organization_id: Type.Integer(),
  /** The 30-day period of the month (the latest one starting in it); null before any device reading. */
  period_start: Type.Union([IsoDate, Type.Null()]),
  period_end: Type.Union([IsoDate, Type.Null()]),
  device_days: Type.Integer(),
  minutes: Type.Integer(),
  interactive: Type.Boolean(),
  codes: Type.Array(BillingCodeUnits),
  missing: Type.Array(Type.String()),
});
export type BillingRow = Static<typeof BillingRow>;

export const BillingTotal = Type.Object({ code: Type.String(), units: Type.Integer() });
export type BillingTotal = Static<typeof BillingTotal>;

export const BillingReport = Type.Object({
  month: BillingMonth,
  closed: Type.Boolean(),
  closed_at: Type.Union([Timestamp, Type.Null()]),
  rows: Type.Array(BillingRow),
  totals: Type.Array(BillingTotal),
});
export type BillingReport = Static<typeof BillingReport>;

export const BillingClosing = Type.Object({ month: BillingMonth, closed: Type.Literal(true), closed_at: Timestamp });
export type BillingClosing = Static<typeof BillingClosing>;

export const PatientBillingQuery = Type.Object({ month: Type.Optional(BillingMonth) }, { additionalProperties: false });
export type PatientBillingQuery = Static<typeof PatientBillingQuery>;

export const BillingTimeEntry = Type.Object({
  id: Type.Integer(),
  date: IsoDate,
  duration_minutes: Type.Integer(),
  interactive: Type.Boolean(),
  notes: Type.Union([Type.String(), Type.Null()]),
  logged_by: Type.Union([Type.String(), Type.Null()]),
});
export type BillingTimeEntry = Static<typeof BillingTimeEntry>;

/** One patient's month: the report's row, and the evidence behind it (days with readings, time entries). */
export const PatientBilling = Type.Object({
  month: BillingMonth,
  closed: Type.Boolean(),
  time_zone: Type.String(),
  row: BillingRow,
  reading_days: Type.Array(Type.Object({ day: IsoDate, readings: Type.Integer() })),
  entries: Type.Array(BillingTimeEntry),
});
export type PatientBilling = Static<typeof PatientBilling>;

export const billingPath = '/api/billing';
export const billingExportPath = '/api/billing/export.csv';
export const billingClosePath = (month: string) => `/api/billing/${month}/close`;
export const patientBillingPath = (id: number) => `/api/patients/${id}/billing`;
