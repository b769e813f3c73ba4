import { billingExportPath, type BillingQuery } from '@rpm/contracts';
import { callPath, defineCall } from '../client.ts';
import { billingQueryParams } from './get-billing-report.ts';

// A CSV answer, no JSON contract to check.
export const exportBillingCsvCall = defineCall('GET', billingExportPath, false);

/**
 * The CSV is downloaded by the browser itself (a plain link with the session cookie), so a large
 * month streams to disk instead of passing through script memory. A GET needs no CSRF header.
 */
export const billingExportUrl = (query: BillingQuery): string => callPath(exportBillingCsvCall, { query: billingQueryParams(query) });
