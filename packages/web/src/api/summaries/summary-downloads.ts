import type { SummaryPaper } from '@rpm/contracts';
import { callPath, defineCall } from '../client.ts';

// PDF and zip answers: no JSON contract to check.
export const summaryPdfCall = defineCall('GET', '/api/patients/:id/summary.pdf', false);
export const summaryArchiveCall = defineCall('GET', '/api/summaries.zip', false);

/**
 * The downloads are plain links the browser follows with the session cookie (a GET needs no CSRF
 * header), so a document streams to disk instead of passing through script memory.
 */
export const summaryPdfUrl = (patientId: number, month: string, paper?: SummaryPaper): string =>
  callPath(summaryPdfCall, { params: { id: patientId }, query: { month, paper } });

export const summaryArchiveUrl = (month: string): string => callPath(summaryArchiveCall, { query: { month } });
