/** FHIR Bulk Data export, registered under the FHIR server's prefix (issue 27). */
export { bulkExportRoutes } from './bulk-export.routes.ts';
