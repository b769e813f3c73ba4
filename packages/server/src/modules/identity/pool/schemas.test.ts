import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { CognitoError, checkBody, type Body } from '../protocol.ts';
import * as S from './schemas.ts';

/** The dispatcher's one check of a body: refusals in Cognito's shape and words, never echoing input. */
function refusal(schema: TSchema, body: Body): { __type: string; message: string } | 'accepted' {
  try {
    checkBody(Compile(schema), body);
    return 'accepted';
  } catch (err) {
    if (!(err instanceof CognitoError)) throw err;
    return { __type: err.type, message: err.message };
  }
}

const invalid = (message: string) => ({ __type: 'InvalidParameterException', message });

describe('operation schemas', () => {
  it('names a missing or empty required field', () => {
    expect(refusal(S.InitiateAuth, { AuthFlow: 'USER_SRP_AUTH' })).toEqual(
      invalid('Missing required parameter ClientId'),
    );
    expect(refusal(S.ForgotPassword, { ClientId: 'c', Username: '' })).toEqual(
      invalid('Missing required parameter Username'),
    );
    expect(refusal(S.AdminUser, { UserPoolId: 'p' })).toEqual(invalid('Missing required parameter Username'));
  });

  it('refuses wrong types and lengths by field name, without the value', () => {
    expect(refusal(S.GetUser, { AccessToken: 42 })).toEqual(invalid('AccessToken must be a string'));
    expect(refusal(S.ForgotPassword, { ClientId: 'c', Username: `${'x'.repeat(250)}@example.com` })).toEqual(
      invalid('Username is too long'),
    );
    expect(
      refusal(S.AdminSetUserPassword, { UserPoolId: 'p', Username: 'u', Password: 'P', Permanent: 'yes' }),
    ).toEqual(invalid('Permanent must be a boolean'));
    expect(
      refusal(S.InitiateAuth, { ClientId: 'c', AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 7 } }),
    ).toEqual(invalid('AuthParameters must be a map of strings'));
    expect(refusal(S.SetUserMFAPreference, { AccessToken: 't', SoftwareTokenMfaSettings: { Enabled: 'on' } })).toEqual(
      invalid('Enabled must be a boolean'),
    );
    expect(refusal(S.AdminCreateUser, { UserPoolId: 'p', Username: 'u', UserAttributes: 'email' })).toEqual(
      invalid('UserAttributes must be a list of name and value pairs'),
    );
  });

  it('keeps the limits of ListUsers and AdminCreateUser', () => {
    expect(refusal(S.ListUsers, { UserPoolId: 'p', Limit: 0 })).toEqual(invalid('Limit must be from 1 to 60'));
    expect(refusal(S.ListUsers, { UserPoolId: 'p', Limit: 1.5 })).toEqual(invalid('Limit must be from 1 to 60'));
    expect(refusal(S.ListUsers, { UserPoolId: 'p', Limit: '10' })).toEqual(invalid('Limit must be a number'));
    expect(refusal(S.AdminCreateUser, { UserPoolId: 'p', Username: 'u', MessageAction: 'DROP' })).toEqual(
      invalid('MessageAction must be RESEND or SUPPRESS'),
    );
  });

  it('reads null as absent and ignores fields it does not read', () => {
    expect(
      refusal(S.RespondToAuthChallenge, {
        ClientId: 'c',
        ChallengeName: 'MFA_SETUP',
        Session: null,
        ClientMetadata: {},
      }),
    ).toBe('accepted');
    expect(refusal(S.ListUsers, { UserPoolId: 'p', Limit: null, Filter: null })).toBe('accepted');
  });
});
