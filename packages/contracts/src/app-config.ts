import { Type, type Static } from 'typebox';

/** GET /app-config.json: what the browser needs to talk to the user pool. */
export const AppConfig = Type.Object({
  userPoolId: Type.String(),
  clientId: Type.String(),
  region: Type.String(),
  /** Present only when the built-in local user pool is used. */
  userPoolEndpoint: Type.Optional(Type.String()),
});
export type AppConfig = Static<typeof AppConfig>;

export const Health = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Literal('ok'),
});
