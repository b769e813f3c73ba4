import { Type, type Static } from 'typebox';
import { BillingCodeUnits, BillingMonth } from './billing.ts';
import { IsoDate, Timestamp, RowId } from './common.ts';

/**
 * The monthly summary for the patient's physician: one patient's calendar month (in the
 * organization's time zone) as JSON, as a PDF and, for all of a provider's patients, as one
 * archive of PDFs. The same figures feed the FHIR DiagnosticReport.
 */

export const SUMMARY_PAPER_SIZES = ['a4', 'letter'] as const;
export type SummaryPaper = (typeof SUMMARY_PAPER_SIZES)[number];
/** A4 unless the clinic asks for US Letter. */
export const DEFAULT_SUMMARY_PAPER: SummaryPaper = 'a4';

export const SummaryQuery = Type.Object({ month: BillingMonth }, { additionalProperties: false });
export type SummaryQuery = Static<typeof SummaryQuery>;

export const SummaryPdfQuery = Type.Object(
  {
    month: BillingMonth,
    paper: Type.Optional(Type.Union(SUMMARY_PAPER_SIZES.map((p) => Type.Literal(p)))),
  },
  { additionalProperties: false },
);
export type SummaryPdfQuery = Static<typeof SummaryPdfQuery>;

export const SummaryArchiveQuery = Type.Object(
  {
    month: BillingMonth,
    paper: Type.Optional(Type.Union(SUMMARY_PAPER_SIZES.map((p) => Type.Literal(p)))),
    /** An admin names the provider; a provider gets their own patients (another provider's: 403). */
    provider_id: Type.Optional(RowId()),
  },
  { additionalProperties: false },
);
export type SummaryArchiveQuery = Static<typeof SummaryArchiveQuery>;

/** One component of a kind over the month, in its canonical unit, rounded to the unit's display decimals. */
export const SummaryComponent = Type.Object({
  code: Type.String(),
  label: Type.String(),
  /** UCUM code of the canonical unit, and the label people read. */
  ucum: Type.String(),
  unit: Type.String(),
  /** Decimal places the figures are shown with (the registry's display precision of the unit). */
  decimals: Type.Integer({ minimum: 0 }),
  /** Readings that had this component (an optional one, e.g. a cuff's pulse, may be missing). */
  count: Type.Integer({ minimum: 0 }),
  mean: Type.Number(),
  min: Type.Number(),
  max: Type.Number(),
});
export type SummaryComponent = Static<typeof SummaryComponent>;

export const SummaryKind = Type.Object({
  kind: Type.String(),
  label: Type.String(),
  count: Type.Integer({ minimum: 0 }),
  /** Distinct days with a reading, in the organization's time zone. */
  days_measured: Type.Integer({ minimum: 0 }),
  /** Readings the kind's classifier calls normal with the patient's effective thresholds. */
  in_target: Type.Integer({ minimum: 0 }),
  /** in_target / count, 0..1. */
  in_target_share: Type.Number({ minimum: 0, maximum: 1 }),
  components: Type.Array(SummaryComponent),
});
export type SummaryKind = Static<typeof SummaryKind>;

export const SummaryAlerts = Type.Object({
  /** Alerts first raised in the month. */
  raised: Type.Integer({ minimum: 0 }),
  /** Of those, the ones not resolved (open or acknowledged). */
  open: Type.Integer({ minimum: 0 }),
  /** Of those, resolved, counted per resolution reason (null: resolved without one). */
  resolved: Type.Array(Type.Object({ reason: Type.Union([Type.String(), Type.Null()]), count: Type.Integer({ minimum: 1 }) })),
});
export type SummaryAlerts = Static<typeof SummaryAlerts>;

export const SummaryNote = Type.Object({
  /** The day written, in the organization's time zone. */
  date: IsoDate,
  author: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
});
export type SummaryNote = Static<typeof SummaryNote>;

export const SummaryTimeEntry = Type.Object({
  date: IsoDate,
  minutes: Type.Integer({ minimum: 0 }),
  activity: Type.Union([Type.String(), Type.Null()]),
  interactive: Type.Boolean(),
  contact_type: Type.Union([Type.String(), Type.Null()]),
});
export type SummaryTimeEntry = Static<typeof SummaryTimeEntry>;

export const MonthlySummary = Type.Object({
  month: BillingMonth,
  time_zone: Type.String(),
  /** The month's first and last instants bounds: [start, end) in UTC. */
  period_start: Timestamp,
  period_end: Timestamp,
  /** True once the month has ended in the organization's time zone. */
  complete: Type.Boolean(),
  patient: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    date_of_birth: Type.Union([IsoDate, Type.Null()]),
  }),
  organization: Type.Object({ id: Type.Integer(), name: Type.String() }),
  programs: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
  kinds: Type.Array(SummaryKind),
  alerts: SummaryAlerts,
  notes: Type.Array(SummaryNote),
  tracking: Type.Object({
    minutes: Type.Integer({ minimum: 0 }),
    live_contacts: Type.Integer({ minimum: 0 }),
    entries: Type.Array(SummaryTimeEntry),
  }),
  codes: Type.Array(BillingCodeUnits),
});
export type MonthlySummary = Static<typeof MonthlySummary>;

export const patientSummaryPath = (id: number, month: string) => `/api/patients/${id}/summary?month=${month}`;
export const patientSummaryPdfPath = (id: number, month: string, paper: SummaryPaper = DEFAULT_SUMMARY_PAPER) =>
  `/api/patients/${id}/summary.pdf?month=${month}${paper === DEFAULT_SUMMARY_PAPER ? '' : `&paper=${paper}`}`;
export const summaryArchivePath = (month: string, providerId?: number) =>
  `/api/summaries.zip?month=${month}${providerId === undefined ? '' : `&provider_id=${providerId}`}`;
/** The web's printable page of one patient's month. */
export const summaryPagePath = (id: number, month: string) => `/patients/${id}/summary/${month}`;
/** File names of the downloads. */
export const summaryPdfFileName = (patientId: number, month: string) => `summary-${patientId}-${month}.pdf`;
export const summaryArchiveFileName = (month: string) => `summaries-${month}.zip`;

/** The month `delta` months from `month` ('YYYY-MM'). */
export function shiftMonth(month: string, delta: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(year, mon - 1 + delta, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The calendar month of an instant in a time zone, 'YYYY-MM'. */
export const monthOf = (instant: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(instant).slice(0, 7);
