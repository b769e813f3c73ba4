import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Errors, checkBody, type Body } from '../protocol.ts';
import * as admin from './admin.ts';
import type { CallerInfo, PoolContext } from './context.ts';
import * as mfa from './mfa.ts';
import * as passwords from './passwords.ts';
import * as S from './schemas.ts';
import * as signIn from './sign-in.ts';
import * as tokens from './tokens.ts';

/**
 * The protocol's operations, by X-Amz-Target name: each with its schema, checked here once, and
 * the capability that answers it. The dispatcher also checks what every operation of a kind
 * carries: the app client id of user operations that name one, the pool id of admin operations.
 * Admin operations are served only to callers the HTTP face has authenticated (SigV4).
 */

interface Operation {
  /** Admin operations need the pool's admin credentials. */
  admin: boolean;
  handle(ctx: PoolContext, body: Body, caller: CallerInfo): Promise<Body>;
}

function user<Sch extends TSchema>(
  schema: Sch,
  run: (ctx: PoolContext, input: Static<Sch>, caller: CallerInfo) => Promise<Body>,
): Operation {
  const validator = Compile(schema);
  return {
    admin: false,
    async handle(ctx, body, caller) {
      const input = checkBody(validator, body);
      const clientId = (input as { ClientId?: unknown }).ClientId;
      if (typeof clientId === 'string' && clientId !== ctx.clientId) {
        throw Errors.resourceNotFound(`User pool client ${clientId} does not exist.`);
      }
      return run(ctx, input, caller);
    },
  };
}

function adminOp<Sch extends TSchema>(
  schema: Sch,
  run: (ctx: PoolContext, input: Static<Sch>) => Promise<Body>,
): Operation {
  const validator = Compile(schema);
  return {
    admin: true,
    async handle(ctx, body) {
      const input = checkBody(validator, body);
      const poolId = (input as { UserPoolId?: unknown }).UserPoolId;
      if (poolId !== ctx.poolId) throw Errors.resourceNotFound(`User pool ${String(poolId)} does not exist.`);
      return run(ctx, input);
    },
  };
}

const done = async (work: Promise<void>): Promise<Body> => {
  await work;
  return {};
};

const OPERATIONS: Record<string, Operation> = {
  InitiateAuth: user(S.InitiateAuth, signIn.initiateAuth),
  RespondToAuthChallenge: user(S.RespondToAuthChallenge, signIn.respondToAuthChallenge),
  GetTokensFromRefreshToken: user(S.GetTokensFromRefreshToken, tokens.getTokensFromRefreshToken),
  RevokeToken: user(S.RevokeToken, tokens.revokeToken),
  GetUser: user(S.GetUser, tokens.getUser),
  GlobalSignOut: user(S.GlobalSignOut, tokens.globalSignOut),
  AssociateSoftwareToken: user(S.AssociateSoftwareToken, mfa.associateSoftwareToken),
  VerifySoftwareToken: user(S.VerifySoftwareToken, mfa.verifySoftwareToken),
  SetUserMFAPreference: user(S.SetUserMFAPreference, mfa.setUserMfaPreference),
  ChangePassword: user(S.ChangePassword, passwords.changePassword),
  ForgotPassword: user(S.ForgotPassword, passwords.forgotPassword),
  ConfirmForgotPassword: user(S.ConfirmForgotPassword, passwords.confirmForgotPassword),

  AdminCreateUser: adminOp(S.AdminCreateUser, admin.adminCreateUserOperation),
  AdminGetUser: adminOp(S.AdminUser, admin.adminGetUserOperation),
  ListUsers: adminOp(S.ListUsers, admin.listUsersOperation),
  AdminSetUserPassword: adminOp(S.AdminSetUserPassword, (ctx, i) =>
    done(admin.setPassword(ctx, i.Username, i.Password, i.Permanent ?? false)),
  ),
  AdminEnableUser: adminOp(S.AdminUser, (ctx, i) => done(admin.setEnabled(ctx, i.Username, true))),
  AdminDisableUser: adminOp(S.AdminUser, (ctx, i) => done(admin.setEnabled(ctx, i.Username, false))),
  AdminUserGlobalSignOut: adminOp(S.AdminUser, (ctx, i) => done(admin.signOutEverywhere(ctx, i.Username))),
  AdminSetUserMFAPreference: adminOp(S.AdminSetUserMFAPreference, (ctx, i) =>
    done(admin.setMfaPreference(ctx, i.Username, i.SoftwareTokenMfaSettings)),
  ),
};

/** Whether the operation needs the admin credentials: every Admin* name does, known or not. */
export function isAdminOperation(op: string): boolean {
  return OPERATIONS[op]?.admin === true || op.startsWith('Admin');
}

/** Runs an operation whose caller, for an admin one, has been authenticated. */
export async function dispatch(ctx: PoolContext, op: string, body: Body, caller: CallerInfo): Promise<Body> {
  const operation = Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op] : undefined;
  if (!operation) throw Errors.unknownOperation();
  return operation.handle(ctx, body, caller);
}
