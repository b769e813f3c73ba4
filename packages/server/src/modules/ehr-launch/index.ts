/** Launch from the EHR: the organization's launch settings and matching the EHR's patient (issue 27). */
export { ehrLaunchRoutes } from './ehr-launch.routes.ts';
