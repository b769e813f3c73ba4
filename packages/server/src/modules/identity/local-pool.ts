import { createPoolContext, type CallerInfo, type LocalPoolDeps, type PoolContext } from './pool/context.ts';
import { dispatch } from './pool/dispatcher.ts';
import { tokenStillValid } from './pool/tokens.ts';
import type { Body } from './protocol.ts';
import { verifySigV4, type AdminCredentials, type SignedRequest } from './sigv4.ts';
import { jwksOf } from './tokens.ts';

/**
 * The local user pool: Cognito's operations, names, shapes and error types, over the portal's
 * database. Its capabilities live in `pool/` (sign-in flow, MFA, passwords, tokens,
 * administration, throttling) behind one dispatcher; this is the face the HTTP plugin and the
 * in-process directory hold.
 */

export class LocalPool {
  readonly poolId: string;
  readonly clientId: string;
  /** For the in-process directory, which calls the administration capability directly. */
  readonly context: PoolContext;
  private readonly admin: AdminCredentials;

  constructor(deps: LocalPoolDeps) {
    this.context = createPoolContext(deps);
    this.poolId = this.context.poolId;
    this.clientId = this.context.clientId;
    this.admin = {
      accessKeyId: deps.settings.admin_access_key_id,
      secretAccessKey: deps.settings.admin_secret_access_key,
    };
  }

  jwks() {
    return jwksOf(this.context.key);
  }

  verifyAdminSignature(req: SignedRequest): Promise<boolean> {
    return verifySigV4(req, this.admin);
  }

  /** One operation of the protocol; an admin one only for a caller proven by `verifyAdminSignature`. */
  operation(op: string, body: Body, caller: CallerInfo): Promise<Body> {
    return dispatch(this.context, op, body, caller);
  }

  tokenStillValid(claims: { iat: number; originJti: string }, validAfter: Date | null): Promise<boolean> {
    return tokenStillValid(this.context.db, claims, validAfter);
  }
}
