import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import {
  AlertTexts,
  ContactTypeLabels,
  SummaryTexts,
  TrackingActivityLabels,
  summaryConclusion,
  summaryFigure,
  summaryMonthLabel,
  summaryShare,
  type ContactType,
  type MonthlySummary,
  type ResolutionReason,
  type SummaryPaper,
  type TrackingActivity,
} from '@rpm/contracts';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';

/*
 * The PDF is drawn by pdfmake (PDFKit underneath) with the Roboto fonts its package ships, read
 * from node_modules: nothing is fetched, and no URL or file outside the fonts may be read by a
 * document (a name or a note cannot make the server open a link).
 */
const require = createRequire(import.meta.url);
const fontsModule = require.resolve('pdfmake/fonts/Roboto.js');
const fontsDir = dirname(fontsModule);
pdfmake.setFonts(require(fontsModule) as Parameters<typeof pdfmake.setFonts>[0]);
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => path.startsWith(fontsDir));

const PAGE_SIZE: Record<SummaryPaper, 'A4' | 'LETTER'> = { a4: 'A4', letter: 'LETTER' };

const header = (...cells: string[]): TableCell[] => cells.map((text) => ({ text, style: 'th' }));
const resolutionLabel = (reason: string | null) =>
  reason === null ? SummaryTexts.resolvedWithoutReason : (AlertTexts.reasons[reason as ResolutionReason] ?? reason);
const activityLabel = (a: string | null) => (a === null ? '' : (TrackingActivityLabels[a as TrackingActivity] ?? a));
const contactLabel = (c: string | null) =>
  c === null ? SummaryTexts.noContact : (ContactTypeLabels[c as ContactType] ?? c);

/** A table that repeats its header on every page and whose rows are never split across pages. */
function table(widths: (string | number)[], head: TableCell[], rows: TableCell[][]): Content {
  return {
    table: { headerRows: 1, widths, dontBreakRows: true, body: [head, ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 4, 0, 12],
  };
}

const section = (title: string): Content => ({ text: title, style: 'h2' });
const empty = (text: string): Content => ({ text, style: 'muted', margin: [0, 2, 0, 12] });

function readings(s: MonthlySummary): Content[] {
  if (s.kinds.length === 0) return [section(SummaryTexts.readings), empty(SummaryTexts.noReadings)];
  const rows = s.kinds.flatMap((k) =>
    k.components.map((c, i): TableCell[] => [
      i === 0 ? { text: k.label, bold: true } : '',
      `${c.label} (${c.unit})`,
      String(c.count),
      summaryFigure(c.mean, c.decimals),
      summaryFigure(c.min, c.decimals),
      summaryFigure(c.max, c.decimals),
      i === 0 ? String(k.days_measured) : '',
      i === 0 ? summaryShare(k.in_target_share) : '',
    ]),
  );
  return [
    section(SummaryTexts.readings),
    table(
      ['*', '*', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto'],
      header(
        SummaryTexts.kind,
        SummaryTexts.component,
        SummaryTexts.count,
        SummaryTexts.mean,
        SummaryTexts.min,
        SummaryTexts.max,
        SummaryTexts.daysMeasured,
        SummaryTexts.inTarget,
      ),
      rows,
    ),
    { text: SummaryTexts.inTargetHelp, style: 'muted', margin: [0, -8, 0, 12] },
  ];
}

function alerts(s: MonthlySummary): Content[] {
  if (s.alerts.raised === 0) return [section(SummaryTexts.alerts), empty(SummaryTexts.noAlerts)];
  return [
    section(SummaryTexts.alerts),
    table(
      ['*', 'auto'],
      header(SummaryTexts.alerts, SummaryTexts.alertsCount),
      [
        [SummaryTexts.alertsRaised, String(s.alerts.raised)],
        ...s.alerts.resolved.map((r): TableCell[] => [
          `${SummaryTexts.alertsResolvedAs}: ${resolutionLabel(r.reason)}`,
          String(r.count),
        ]),
        [SummaryTexts.alertsOpen, String(s.alerts.open)],
      ],
    ),
  ];
}

function notes(s: MonthlySummary): Content[] {
  if (s.notes.length === 0) return [section(SummaryTexts.notes), empty(SummaryTexts.noNotes)];
  return [
    section(SummaryTexts.notes),
    table(
      ['auto', 'auto', '*'],
      header(SummaryTexts.noteDate, SummaryTexts.noteAuthor, SummaryTexts.noteText),
      s.notes.map((n) => [n.date, n.author ?? SummaryTexts.unknownAuthor, n.text]),
    ),
  ];
}

function time(s: MonthlySummary): Content[] {
  const totals: Content = {
    text: `${SummaryTexts.minutes}: ${s.tracking.minutes}    ${SummaryTexts.liveContacts}: ${s.tracking.live_contacts}`,
    margin: [0, 0, 0, 4],
  };
  if (s.tracking.entries.length === 0) return [section(SummaryTexts.time), totals, empty(SummaryTexts.noTime)];
  return [
    section(SummaryTexts.time),
    totals,
    table(
      ['auto', 'auto', '*', '*'],
      header(SummaryTexts.noteDate, SummaryTexts.minutes, SummaryTexts.activity, SummaryTexts.contact),
      s.tracking.entries.map((e) => [
        e.date,
        String(e.minutes),
        activityLabel(e.activity),
        e.interactive ? contactLabel(e.contact_type) : SummaryTexts.noContact,
      ]),
    ),
  ];
}

function codes(s: MonthlySummary): Content[] {
  if (s.codes.length === 0) return [section(SummaryTexts.codes), empty(SummaryTexts.noCodes)];
  return [
    section(SummaryTexts.codes),
    table(
      ['auto', 'auto', '*'],
      header(SummaryTexts.code, SummaryTexts.units, SummaryTexts.servicePeriod),
      s.codes.map((c) => [c.code, String(c.units), `${c.period_start} – ${c.period_end}`]),
    ),
  ];
}

/** The document of one patient's month: every section starts on a line of its own; tables split only between rows. */
export function summaryDocument(s: MonthlySummary, paper: SummaryPaper): TDocumentDefinitions {
  const monthLabel = summaryMonthLabel(s.month);
  return {
    pageSize: PAGE_SIZE[paper],
    pageMargins: [40, 48, 40, 48],
    info: { title: `${SummaryTexts.title} ${s.patient.name} ${monthLabel}`, subject: SummaryTexts.title },
    defaultStyle: { font: 'Roboto', fontSize: 9.5 },
    styles: {
      h1: { fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      h2: { fontSize: 12, bold: true, margin: [0, 8, 0, 2] },
      th: { bold: true },
      muted: { color: '#555555', fontSize: 8.5 },
    },
    footer: (page, pages) => ({
      text: `${s.patient.name} · ${monthLabel} · ${page} / ${pages}`,
      style: 'muted',
      alignment: 'center',
    }),
    content: [
      { text: `${SummaryTexts.title}: ${monthLabel}`, style: 'h1' },
      {
        columns: [
          [
            { text: [{ text: `${SummaryTexts.patient}: `, bold: true }, s.patient.name] },
            {
              text: [{ text: `${SummaryTexts.dateOfBirth}: `, bold: true }, s.patient.date_of_birth ?? SummaryTexts.noContact],
            },
          ],
          [
            { text: [{ text: `${SummaryTexts.organization}: `, bold: true }, s.organization.name] },
            { text: [{ text: `${SummaryTexts.timeZone}: `, bold: true }, s.time_zone] },
          ],
        ],
        margin: [0, 0, 0, 6],
      },
      {
        text: [
          { text: `${SummaryTexts.programs}: `, bold: true },
          s.programs.length ? s.programs.map((p) => p.label).join(', ') : SummaryTexts.noPrograms,
        ],
      },
      ...(s.complete ? [] : [{ text: SummaryTexts.incomplete, style: 'muted', margin: [0, 4, 0, 0] } as Content]),
      {
        text: summaryConclusion({
          monthLabel,
          kinds: s.kinds,
          alerts: s.alerts.raised,
          minutes: s.tracking.minutes,
        }),
        margin: [0, 6, 0, 4],
      },
      ...readings(s),
      ...alerts(s),
      ...time(s),
      ...codes(s),
      ...notes(s),
    ],
  };
}

export function renderSummaryPdf(s: MonthlySummary, paper: SummaryPaper): Promise<Buffer> {
  return pdfmake.createPdf(summaryDocument(s, paper)).getBuffer();
}
