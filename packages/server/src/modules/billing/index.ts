/** The billing module's public face: its routes and the closed-month questions other modules ask. */
export { billingRoutes } from './billing.routes.ts';
export { isBillingMonthClosed, readingsInClosedMonths } from './billing.service.ts';
export { getPatientBilling } from './billing.service.ts';
