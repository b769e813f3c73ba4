/**
 * The EHR launch's addresses, in a module of their own without schemas: the web's router imports
 * them with every page, and a module's schema definitions would come along with it.
 */
export const EhrLaunchPaths = {
  /** Registered in the EHR as the app's launch URL. */
  launch: '/ehr/launch',
  /** Registered in the EHR as the app's redirect URI. */
  callback: '/ehr/callback',
  /** The web page the callback sends the browser to (signed-in). */
  complete: '/launch/complete',
  resolve: '/api/ehr-launch/resolve',
  settings: (organizationId: number | string) => `/api/organizations/${organizationId}/ehr-launch`,
} as const;
