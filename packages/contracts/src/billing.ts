import { Type, type Static } from 'typebox';
import { IsoDate, Timestamp, RowId, PG_INTEGER_MAX } from './common.ts';
import { SORT_ORDERS, type SortOrder } from './patients.ts';

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
    organization_id: Type.Optional(RowId()),
  },
  { additionalProperties: false },
);
export type BillingQuery = Static<typeof BillingQuery>;

/**
 * Rows per answer of the billing report and worklist: the default page, and the most one answer
 * may hold (a clinic of 10,000 patients in one answer took over half a second to build and send).
 * The CSV export is never paged.
 */
/**
 * How often the kept billing lines of open months are brought up to date in the background (every
 * quarter of an hour, UTC): a line's freshness ends at its organization's midnight, and time zones
 * have midnights on the quarter hour (UTC+5:45, +8:45, +12:45), so the first read of a day rarely
 * computes every line itself.
 */
export const BILLING_LINES_REFRESH_CRON = '*/15 * * * *';

export const BILLING_PAGE_SIZE = 50;
export const BILLING_PAGE_MAX = 500;
export const BILLING_PAGE_SIZE_OPTIONS = [25, 50, 100] as const;
const BillingPaging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: BILLING_PAGE_MAX, default: BILLING_PAGE_SIZE })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: PG_INTEGER_MAX, default: 0 })),
};
/** What every paged billing answer says of its page: all rows in scope, and where this page starts. */
const BillingPage = { total: Type.Integer({ minimum: 0 }), limit: Type.Integer(), offset: Type.Integer() };

/** GET /api/billing: the report's query, a page of its rows (the export takes BillingQuery, whole). */
export const BillingReportQuery = Type.Object(
  { ...BillingQuery.properties, ...BillingPaging },
  { additionalProperties: false },
);
export type BillingReportQuery = Static<typeof BillingReportQuery>;

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
  /** When an admin marked the closed month's claims as sent (it can no longer be reopened). */
  claims_sent_at: Type.Union([Timestamp, Type.Null()]),
  /** The page's rows, in the report's order (by name). */
  rows: Type.Array(BillingRow),
  ...BillingPage,
  /** Units per code over every row in scope, not only the page's. */
  totals: Type.Array(BillingTotal),
});
export type BillingReport = Static<typeof BillingReport>;

export const BillingClosing = Type.Object({ month: BillingMonth, closed: Type.Literal(true), closed_at: Timestamp });
export type BillingClosing = Static<typeof BillingClosing>;

export const BILLING_REOPEN_REASON_MAX = 1000;
/** POST /api/billing/{month}/reopen (admins, until the claims are sent): why, kept and audited. */
export const BillingReopenBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: BILLING_REOPEN_REASON_MAX, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type BillingReopenBody = Static<typeof BillingReopenBody>;
export const BillingReopening = Type.Object({
  month: BillingMonth,
  closed: Type.Literal(false),
  reopened_at: Timestamp,
});
export type BillingReopening = Static<typeof BillingReopening>;
/** POST /api/billing/{month}/claims-sent: the closed month's claims went to the payer. */
export const BillingClaimsSent = Type.Object({ month: BillingMonth, claims_sent_at: Timestamp });
export type BillingClaimsSent = Static<typeof BillingClaimsSent>;

/**
 * GET /api/billing/worklist: who can still earn what this month. `month` defaults to the current
 * one; a past month shows how it ended (no days left), which is the month's report.
 */
/**
 * The worklist's columns it can be sorted by, over every matching row before the page is cut (ties
 * keep the worklist's own order; a missing last reading or outreach goes last either way). Without
 * one, the worklist's order: what can still be earned, at risk first.
 */
export const BILLING_WORKLIST_SORTS = [
  'patient',
  'at_risk',
  'device_days',
  'minutes',
  'interactive',
  'last_reading',
  'last_outreach',
] as const;
export type BillingWorklistSort = (typeof BILLING_WORKLIST_SORTS)[number];

export const BillingWorklistQuery = Type.Object(
  {
    month: Type.Optional(BillingMonth),
    organization_id: Type.Optional(RowId()),
    provider_id: Type.Optional(RowId()),
    program: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' })),
    sort: Type.Optional(Type.Unsafe<BillingWorklistSort>({ type: 'string', enum: [...BILLING_WORKLIST_SORTS] })),
    order: Type.Optional(Type.Unsafe<SortOrder>({ type: 'string', enum: [...SORT_ORDERS] })),
    ...BillingPaging,
  },
  { additionalProperties: false },
);
export type BillingWorklistQuery = Static<typeof BillingWorklistQuery>;

/**
 * What the patient's device days can still come to in the running 30-day period: the full code
 * earned (16 days), reachable in the days left, only the short code (2 days) reachable or earned,
 * or nothing.
 */
export const DEVICE_OUTLOOKS = ['full_earned', 'full_reachable', 'short_earned', 'short_reachable', 'none'] as const;
export type DeviceOutlook = (typeof DEVICE_OUTLOOKS)[number];

/** The cheapest next code and what it needs (0 / false: nothing more of that). */
export const BillingNeeds = Type.Object({
  /** The code the needs lead to, or null when nothing more can be earned this month. */
  code: Type.Union([Type.String(), Type.Null()]),
  minutes: Type.Integer({ minimum: 0 }),
  contact: Type.Boolean(),
  /** Days with device data still needed, within `within_days` days left in the period. */
  days: Type.Integer({ minimum: 0 }),
  within_days: Type.Integer({ minimum: 0 }),
});
export type BillingNeeds = Static<typeof BillingNeeds>;

export const BillingWorklistRow = Type.Object({
  patient_id: Type.Integer(),
  patient_name: Type.String(),
  organization_id: Type.Integer(),
  primary_provider_id: Type.Union([Type.Integer(), Type.Null()]),
  primary_provider: Type.Union([Type.String(), Type.Null()]),
  programs: Type.Array(Type.String()),
  /** Active for billing today (enrolled, status Active). */
  active: Type.Boolean(),
  period_start: Type.Union([IsoDate, Type.Null()]),
  period_end: Type.Union([IsoDate, Type.Null()]),
  device_days: Type.Integer(),
  /** Days of the running period after today (0 once it ended). */
  days_left: Type.Integer(),
  device_outlook: Type.Unsafe<DeviceOutlook>({ type: 'string', enum: [...DEVICE_OUTLOOKS] }),
  minutes: Type.Integer(),
  /** The next minutes threshold (10, 20, 40, 60 ...). */
  next_minutes: Type.Integer(),
  interactive: Type.Boolean(),
  /** Codes earned so far, by the same rules as the report (equal to its row for a past month). */
  codes: Type.Array(BillingCodeUnits),
  needs: BillingNeeds,
  /** Device days will not reach the full code in this period even with a reading every day left. */
  at_risk: Type.Boolean(),
  last_reading_at: Type.Union([Timestamp, Type.Null()]),
  last_outreach_at: Type.Union([Timestamp, Type.Null()]),
});
export type BillingWorklistRow = Static<typeof BillingWorklistRow>;

export const BillingWorklist = Type.Object({
  month: BillingMonth,
  /** The organization's today (or the month's last day for a past month). */
  today: IsoDate,
  /** The page's rows, in the worklist's order; total counts the rows matching the filters. */
  rows: Type.Array(BillingWorklistRow),
  ...BillingPage,
});
export type BillingWorklist = Static<typeof BillingWorklist>;

export const PatientBillingQuery = Type.Object({ month: Type.Optional(BillingMonth) }, { additionalProperties: false });
export type PatientBillingQuery = Static<typeof PatientBillingQuery>;

export const BillingTimeEntry = Type.Object({
  id: Type.Integer(),
  date: IsoDate,
  duration_minutes: Type.Integer(),
  interactive: Type.Boolean(),
  contact_type: Type.Union([Type.String(), Type.Null()]),
  activity: Type.Union([Type.String(), Type.Null()]),
  notes: Type.Union([Type.String(), Type.Null()]),
  logged_by: Type.Union([Type.String(), Type.Null()]),
});
export type BillingTimeEntry = Static<typeof BillingTimeEntry>;

/** Who the claim is for, as an auditor asks (as it was when the month closed, for a closed month). */
export const BillingEvidencePatient = Type.Object({
  name: Type.String(),
  date_of_birth: Type.Union([IsoDate, Type.Null()]),
  insurances: Type.Array(Type.Object({ type: Type.String(), policy_number: Type.Union([Type.String(), Type.Null()]) })),
  devices: Type.Array(Type.Object({ name: Type.String(), serial: Type.Union([Type.String(), Type.Null()]) })),
  ordering_provider: Type.Union([Type.String(), Type.Null()]),
  consent_date: Type.Union([IsoDate, Type.Null()]),
  diagnosis_codes: Type.Array(Type.String()),
});
export type BillingEvidencePatient = Static<typeof BillingEvidencePatient>;

/** One patient's month: the report's row, and the evidence behind it (days with readings, time entries). */
export const PatientBilling = Type.Object({
  month: BillingMonth,
  closed: Type.Boolean(),
  time_zone: Type.String(),
  patient: BillingEvidencePatient,
  row: BillingRow,
  reading_days: Type.Array(Type.Object({ day: IsoDate, readings: Type.Integer() })),
  entries: Type.Array(BillingTimeEntry),
});
export type PatientBilling = Static<typeof PatientBilling>;

export const billingPath = '/api/billing';
export const billingExportPath = '/api/billing/export.csv';
export const billingClosePath = (month: string) => `/api/billing/${month}/close`;
export const billingReopenPath = (month: string) => `/api/billing/${month}/reopen`;
export const billingClaimsSentPath = (month: string) => `/api/billing/${month}/claims-sent`;
export const billingWorklistPath = '/api/billing/worklist';
export const patientBillingPath = (id: number) => `/api/patients/${id}/billing`;
