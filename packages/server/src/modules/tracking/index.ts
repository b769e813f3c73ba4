export { trackingRoutes } from './tracking.routes.ts';
export { trackingDayRefusal } from './tracking.service.ts';
export { recordTrackingTime, trackingToday } from './tracking.service.ts';
export { addTrackingEntry } from './tracking.service.ts';
