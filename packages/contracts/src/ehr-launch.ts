import { Type, type Static } from 'typebox';

/**
 * Launch from the EHR (SMART App Launch 2.x, EHR launch). The EHR opens `EhrLaunchPaths.launch`
 * with `iss` and `launch`; the server completes the authorization code flow with PKCE, reads the
 * EHR's patient and keeps its identifiers for a short while; the browser, once signed in, asks
 * `EhrLaunchPaths.resolve` which portal patient that is.
 */

/** What the portal asks the EHR for: the launch context, the user's identity and the patient. */
export const EHR_LAUNCH_SCOPE = 'launch openid fhirUser patient/Patient.rs';

/**
 * Binds a launch to the browser that started it. SameSite=Lax, not Strict: the EHR's redirect back
 * to the callback is a cross-site top-level navigation, which a Strict cookie would not follow.
 */
export const EHR_LAUNCH_COOKIE = 'rpm_ehr_launch';
/** A launch, from the EHR's call to the portal's patient page, must finish in this time. */
export const EHR_LAUNCH_TTL_MINUTES = 10;

export const EHR_ISS_MAX_LENGTH = 500;
export const EHR_CLIENT_ID_MAX_LENGTH = 255;
export const PATIENT_IDENTIFIER_SYSTEM_MAX_LENGTH = 255;

/** GET /ehr/launch: what the EHR sends. */
export const EhrLaunchQuery = Type.Object({
  iss: Type.String({ minLength: 1, maxLength: EHR_ISS_MAX_LENGTH }),
  launch: Type.String({ minLength: 1, maxLength: 2048 }),
});
export type EhrLaunchQuery = Static<typeof EhrLaunchQuery>;

/** GET /ehr/callback: what the EHR's authorization server sends back (a code, or an error). */
export const EhrCallbackQuery = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 256 })),
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type EhrCallbackQuery = Static<typeof EhrCallbackQuery>;

/** POST /api/ehr-launch/resolve: the opaque id the callback put in the page's address. */
export const EhrLaunchResolveBody = Type.Object(
  { launch: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);
export type EhrLaunchResolveBody = Static<typeof EhrLaunchResolveBody>;

export const EhrLaunchResolved = Type.Object({ patient_id: Type.Integer() });
export type EhrLaunchResolved = Static<typeof EhrLaunchResolved>;

/** An organization's EHR launch settings (admins). `launch_url` and `redirect_url` are for the EHR's registration form. */
export const EhrLaunchSettings = Type.Object({
  organization_id: Type.Integer(),
  iss: Type.Union([Type.String(), Type.Null()]),
  client_id: Type.Union([Type.String(), Type.Null()]),
  patient_identifier_system: Type.Union([Type.String(), Type.Null()]),
  launch_url: Type.String(),
  redirect_url: Type.String(),
});
export type EhrLaunchSettings = Static<typeof EhrLaunchSettings>;

/**
 * PUT /api/organizations/{id}/ehr-launch. '' or null clears a field; `iss` and `client_id` are set
 * or cleared together. Trimmed by the server.
 */
export const UpdateEhrLaunchSettingsBody = Type.Object(
  {
    iss: Type.Union([Type.String({ maxLength: EHR_ISS_MAX_LENGTH }), Type.Null()]),
    client_id: Type.Union([Type.String({ maxLength: EHR_CLIENT_ID_MAX_LENGTH }), Type.Null()]),
    patient_identifier_system: Type.Union([Type.String({ maxLength: PATIENT_IDENTIFIER_SYSTEM_MAX_LENGTH }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type UpdateEhrLaunchSettingsBody = Static<typeof UpdateEhrLaunchSettingsBody>;

export const EhrLaunchErrors = {
  unknownIss: 'This EHR is not set up for launching the portal. Ask your administrator to add its FHIR base URL.',
  launchFailed: 'The launch from the EHR could not be completed. Open the portal from the EHR again.',
  expired: 'This launch has expired; open the portal from the EHR again.',
  noMatch:
    "No patient in the portal has the EHR's identifier for this patient. Check that the patient's MRN in the portal matches the EHR, or ask your administrator.",
  issNotHttps: 'The FHIR base URL must be an https URL.',
  issInvalid: 'The FHIR base URL must be a URL without a query or fragment.',
  clientIdRequired: 'The client id is required with a FHIR base URL.',
  issWithoutClientId: 'A client id needs the FHIR base URL of its EHR.',
  identifierSystemInvalid: 'The patient identifier system must be a URI without spaces (such as urn:oid:… or https://…).',
  issTaken: 'Another organization already uses this FHIR base URL.',
  mrnTaken: 'Another patient of this organization already has this MRN.',
} as const;

export const EhrLaunchTexts = {
  resolving: 'Opening the patient from the EHR…',
  title: 'Launch from the EHR',
  back: 'Go to patients',
  settingsTitle: 'Launch from the EHR',
  settingsHelp:
    "Register the portal in the EHR as a SMART app with the launch URL and redirect URL below, then enter the EHR's FHIR base URL (iss) and the client id it gave the portal.",
  issLabel: 'EHR FHIR base URL (iss)',
  clientIdLabel: 'Client id',
  identifierSystemLabel: 'Patient identifier system (MRN)',
  launchUrlLabel: 'Launch URL',
  redirectUrlLabel: 'Redirect URL',
  save: 'Save',
  saved: 'EHR launch settings saved',
  saveFailed: 'Failed to save the EHR launch settings',
  loadFailed: 'Failed to load the EHR launch settings',
} as const;
