/**
 * SMART Backend Services: client registration, the token endpoint and discovery (issue 27), and
 * for the FHIR module: what a Bearer access token is worth.
 */
export { smartRoutes } from './smart.routes.ts';
export { smartFhirRoutes } from './smart.fhir.ts';
export { clientNamedByToken, clientOfAccessToken, type TokenLookup } from './smart.token.service.ts';
