/** The me module's public face: its routes, and the signed-in user as the token exchange finds and answers them. */
export { meRoutes } from './me.routes.ts';
export { presentCurrentUser } from './current-user.presenter.ts';
export { linkIdentity, recordPoolMfa, userOfIdentity } from './me.service.ts';
