import { Type, type Static } from 'typebox';

/**
 * One schema per operation of the local pool: the fields it reads, with Cognito's names and the
 * limits the pool enforces. The dispatcher checks a body once against its operation's schema;
 * the operations then read typed fields only. Other fields are ignored, as the clients send more
 * than the pool reads (ClientMetadata, UserContextData, ...).
 */

const required = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const optional = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const StringMap = Type.Optional(Type.Record(Type.String(), Type.String()));
const MfaSettings = Type.Optional(
  Type.Object({ Enabled: Type.Optional(Type.Boolean()), PreferredMfa: Type.Optional(Type.Boolean()) }),
);

const ClientId = required(200);
const Username = required(254);
const AccessToken = required(8192);
const Session = optional(4096);

// ---- user operations ---------------------------------------------------------------------------

export const InitiateAuth = Type.Object({ ClientId, AuthFlow: required(100), AuthParameters: StringMap });
export const RespondToAuthChallenge = Type.Object({
  ClientId,
  ChallengeName: required(100),
  ChallengeResponses: StringMap,
  Session,
});
export const GetTokensFromRefreshToken = Type.Object({ ClientId, RefreshToken: required(8192) });
export const RevokeToken = Type.Object({ ClientId, Token: required(8192) });
export const GetUser = Type.Object({ AccessToken });
export const GlobalSignOut = Type.Object({ AccessToken });
export const ChangePassword = Type.Object({
  AccessToken,
  PreviousPassword: required(256),
  ProposedPassword: required(256),
});
export const ForgotPassword = Type.Object({ ClientId, Username });
export const ConfirmForgotPassword = Type.Object({
  ClientId,
  Username,
  ConfirmationCode: required(20),
  Password: required(256),
});
/** With an access token (signed in) or a session (the MFA_SETUP challenge). */
export const AssociateSoftwareToken = Type.Object({ AccessToken: optional(8192), Session });
export const VerifySoftwareToken = Type.Object({ UserCode: required(20), AccessToken: optional(8192), Session });
export const SetUserMFAPreference = Type.Object({ AccessToken, SoftwareTokenMfaSettings: MfaSettings });

// ---- admin operations --------------------------------------------------------------------------

const UserPoolId = required(200);

export const AdminCreateUser = Type.Object({
  UserPoolId,
  MessageAction: Type.Optional(Type.Union([Type.Literal('RESEND'), Type.Literal('SUPPRESS')])),
  TemporaryPassword: optional(256),
  Username,
  UserAttributes: Type.Optional(Type.Array(Type.Object({ Name: Type.String(), Value: Type.String() }))),
});
export const AdminSetUserPassword = Type.Object({
  UserPoolId,
  Username,
  Password: required(256),
  Permanent: Type.Optional(Type.Boolean()),
});
export const AdminUser = Type.Object({ UserPoolId, Username });
export const ListUsers = Type.Object({
  UserPoolId,
  Limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
  PaginationToken: optional(1000),
  Filter: optional(500),
});
export const AdminSetUserMFAPreference = Type.Object({ UserPoolId, Username, SoftwareTokenMfaSettings: MfaSettings });

export type InitiateAuthInput = Static<typeof InitiateAuth>;
export type RespondToAuthChallengeInput = Static<typeof RespondToAuthChallenge>;
export type ChangePasswordInput = Static<typeof ChangePassword>;
export type ForgotPasswordInput = Static<typeof ForgotPassword>;
export type ConfirmForgotPasswordInput = Static<typeof ConfirmForgotPassword>;
export type AssociateSoftwareTokenInput = Static<typeof AssociateSoftwareToken>;
export type VerifySoftwareTokenInput = Static<typeof VerifySoftwareToken>;
export type SetUserMFAPreferenceInput = Static<typeof SetUserMFAPreference>;
export type AdminCreateUserInput = Static<typeof AdminCreateUser>;
export type ListUsersInput = Static<typeof ListUsers>;
export type MfaSettingsInput = Static<typeof MfaSettings>;
