import { Type, type Static } from 'typebox';
import { ObservationRetentionSchema, TimerStartSchema } from './organizations.ts';

/**
 * Identity administration beyond the spec: the organization-wide "require MFA" setting and the
 * admin's "reset MFA" action (a user who lost the phone), plus the one e-mail normalisation every
 * layer uses.
 */

/** GET / PUT /api/organizations/{id}/settings (admin only). */
export const OrganizationSettings = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** When on, every user of the organization must set up MFA at their next sign-in. */
  require_mfa: Type.Boolean(),
  /** IANA time zone the organization's billing days are counted in. */
  time_zone: Type.String(),
  /** How the care timer starts for providers (organizations.ts). */
  timer_start: TimerStartSchema,
  /**
   * Months the organization keeps its readings; null keeps them all (organizations.ts). The server
   * always sends it; optional for clients and fixtures written before the setting.
   */
  observation_retention_months: Type.Optional(ObservationRetentionSchema),
});
export type OrganizationSettings = Static<typeof OrganizationSettings>;

export const UpdateOrganizationSettingsBody = Type.Object(
  {
    require_mfa: Type.Boolean(),
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    timer_start: Type.Optional(TimerStartSchema),
    /** Left out keeps the retention; null keeps every reading. The range is checked by observationRetentionError. */
    observation_retention_months: Type.Optional(ObservationRetentionSchema),
  },
  { additionalProperties: false },
);
export type UpdateOrganizationSettingsBody = Static<typeof UpdateOrganizationSettingsBody>;

/** Path templates, so the web page and the server name the same route. */
export const organizationSettingsPath = (id: number) => `/api/organizations/${id}/settings`;
/**
 * POST (no body) resets a user's MFA: the pool forgets the TOTP secret, the portal's flag goes
 * off; nothing else ends. Answers AdminUserResponse (admin.ts), like the other user actions.
 */
export const resetMfaPath = (id: number) => `/api/admin/users/${id}/reset-mfa`;

/**
 * The one spelling of an e-mail address used for lookups and uniqueness: Unicode NFKC (so that,
 * e.g., the Kelvin sign U+212A becomes "K") then lower case, trimmed. Done in JavaScript only:
 * SQL compares already normalised values, because PostgreSQL's lower() depends on the locale.
 */
export function normalizeEmail(value: string): string {
  return value.normalize('NFKC').toLowerCase().trim();
}
