// The CapabilityStatement: what this server does, as the routes serve it.
import type { CapabilityStatement } from '@medplum/fhirtypes';
import { MEASUREMENT_KINDS } from '@rpm/contracts';
import { DEVICE_ID_SYSTEM, FHIR_VERSION, profilesOf } from './fhir.presenter.ts';
const BULK_DATA = 'http://hl7.org/fhir/uv/bulkdata';
const token = (name: string, documentation: string) => ({ name, type: 'token' as const, documentation });
const COUNT = { name: '_count', type: 'number' as const, documentation: 'Page size (at most 500)' };

/**
 * What this server does, for EHRs and integration engines that read it before calling: exactly
 * the interactions, search parameters, includes and operations the routes serve, and how a
 * system client gets a token (SMART Backend Services at `${publicUrl}/oauth/token`).
 */
export function capabilityStatement(publicUrl: string, date: string): CapabilityStatement {
  const patientReference = [
    { name: 'patient', type: 'reference' as const, documentation: 'Required (or subject): Patient/{id} or {id}' },
    { name: 'subject', type: 'reference' as const, documentation: 'A Patient only: Patient/{id}, as patient' },
  ];
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date,
    publisher: 'RPM portal',
    kind: 'instance',
    instantiates: [`${BULK_DATA}/CapabilityStatement/bulk-data`],
    implementation: { description: 'RPM portal FHIR R4 endpoint', url: `${publicUrl}/fhir/R4` },
    fhirVersion: FHIR_VERSION,
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: false,
          service: [
            {
              coding: [
                { system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' },
              ],
              text: 'SMART Backend Services (client credentials with a signed JWT assertion)',
            },
          ],
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: `${publicUrl}/oauth/token` }],
            },
          ],
          description:
            'System clients: a SMART Backend Services access token (Authorization: Bearer). Staff of the portal: their session, scoped to their organization. Unknown search parameters are ignored unless Prefer: handling=strict.',
        },
        resource: [
          {
            type: 'Patient',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              { name: '_id', type: 'token', documentation: 'Logical id, comma-separated for several' },
              token('identifier', "MRN in the organization's identifier system: system|value or value"),
              {
                name: 'name',
                type: 'string',
                documentation:
                  'Start of the first, middle or last name, regardless of case and accents; :contains anywhere in one, :exact a whole one as written',
              },
              COUNT,
            ],
            operation: [{ name: 'export', definition: `${BULK_DATA}/OperationDefinition/patient-export` }],
          },
          {
            type: 'Observation',
            // The profiles the registry's kinds claim (profilesOf), each once.
            supportedProfile: [...new Set(MEASUREMENT_KINDS.flatMap(profilesOf))],
            interaction: [{ code: 'read' }, { code: 'create' }, { code: 'search-type' }],
            conditionalCreate: true,
            searchInclude: ['Observation:patient'],
            searchParam: [
              ...patientReference,
              {
                name: 'date',
                type: 'date',
                documentation: 'Measurement time, with the prefixes eq ne lt le gt ge sa eb',
              },
              token('code', 'LOINC code of the observation: system|code, system| or code; comma for or'),
              token('category', 'vital-signs or laboratory (observation-category system)'),
              COUNT,
              { name: '_sort', type: 'special', documentation: 'date (oldest first) or -date (newest first, default)' },
              { name: '_total', type: 'special', documentation: 'none skips Bundle.total; counted otherwise' },
            ],
          },
          {
            type: 'DiagnosticReport',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              ...patientReference,
              { name: 'date', type: 'date', documentation: 'The month of the monthly summary, e.g. 2026-03' },
              COUNT,
            ],
          },
          {
            type: 'Device',
            interaction: [{ code: 'search-type' }],
            searchParam: [token('identifier', `Device id, in the system ${DEVICE_ID_SYSTEM}`)],
          },
          {
            type: 'Group',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            operation: [{ name: 'export', definition: `${BULK_DATA}/OperationDefinition/group-export` }],
          },
        ],
        interaction: [{ code: 'batch' }, { code: 'transaction' }],
      },
    ],
  };
}
