export { organizationsRoutes } from './organizations.routes.ts';
export { organizationExists } from './organizations.service.ts';
export { requireOrganization } from './organizations.service.ts';
export { createOrganization, getOrganizations } from './organizations.service.ts';
