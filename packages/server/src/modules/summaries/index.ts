/** The summaries module's public face: its routes, and the month's figures FHIR reports. */
export { summariesRoutes } from './summaries.routes.ts';
export { summaryData, summaryMonths, type SummaryData } from './summaries.service.ts';
export { renderSummaryPdf } from './summaries.pdf.ts';
