/** Server error texts (the JSON `message` of 4xx answers). */
export const ApiErrors = {
  unauthorized: 'Authentication required',
  forbidden: 'You do not have permission to do this',
  notFound: 'Not found',
  csrf: 'Missing X-Requested-With header',
  badRequest: 'Invalid request',
  rateLimited: 'Too many requests, please try again later',
  internal: 'Internal server error',
  sessionExpired: 'Session expired',
  userDisabled: 'User is disabled',
  userUnknown: 'User is not registered in the portal',
  signInTooOld: 'Your sign-in is too old, please sign in again',
  nulCharacter: 'Invalid request: text must not contain NUL characters',
  unavailable: 'The service is briefly unavailable, please retry shortly',
  badAddress: 'Invalid request: the address is not valid',
  addressPartTooLong: 'Invalid request: a part of the address is too long',
} as const;

/** Seconds a caller is asked to wait (Retry-After) when the database is unreachable for a moment. */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** Server error texts of the patient API (400/403 answers the patient form shows in a toast). */
export const PatientErrors = {
  policyholderOnlyPrivate: 'Policyholder fields are only allowed for Private insurance',
  organizationUnknown: 'Organization does not exist',
  otherOrganization: 'You can only manage patients of your own organization',
  providerNotInOrganization: "The primary provider must be an active provider of the patient's organization",
  dateOfBirthOutOfRange: 'Date of birth must be between 1900-01-01 and today',
  policyholderBirthdateOutOfRange: 'Policyholder birthdate must be between 1900-01-01 and today',
  trackingDateInFuture: 'Tracking date cannot be in the future',
  trackingDateTooOld: 'Tracking date must be 1900-01-01 or later',
  trackingDayFull: 'Tracking time for a patient cannot exceed 1,440 minutes in one day',
  deviceAssignmentAdminOnly: 'Only administrators can change device assignments',
  deviceUnknown: 'Device does not exist',
  noteContentRequired: 'Note content is required',
  orderingProviderNotInOrganization: "The ordering provider must be an active provider of the patient's organization",
  consentDateOutOfRange: 'Consent date must be between 1900-01-01 and today',
  tooManyDiagnosisCodes: 'A patient can have at most 12 diagnosis codes',
  diagnosisCodeInvalid: (code: string) => `"${code}" is not an ICD-10-CM code (for example I10, E11.9 or I50.22)`,
} as const;

/** Server error texts of the administration routes (the JSON `message` of their 4xx answers). */
export const AdminErrors = {
  emailTaken: 'A user with this email already exists',
  emailTakenInPool: 'A user with this email already exists in the user pool',
  unknownRole: 'Unknown role',
  unknownOrganization: 'Unknown organization',
  cannotDisableSelf: 'You cannot disable your own account',
  inviteNotPending: 'This user has already set a password; an invitation can only be resent to users who have not',
  userPoolFailed: 'The user pool did not accept the request',
  organizationExists: 'An organization with this name already exists',
  organizationNameRequired: 'Name is required',
  deviceExists: 'A device with this device ID already exists',
  deviceIdRequired: 'Device ID is required',
  unknownTable: 'Unknown table',
} as const;

export const AlertErrors = {
  alreadyResolved: 'This alert is already resolved.',
  minutesDayFull: 'The patient already has 1,440 minutes tracked today.',
  snoozePast: 'The snooze must end in the future.',
  // ALERT_SNOOZE_MAX_HOURS (alerts.ts) is 168: a week.
  snoozeTooLong: 'A snooze may last at most 168 hours.',
  contactsNotStaff: 'Escalation contacts must be active staff of this organization.',
} as const;

export const BillingErrors = {
  monthClosed:
    'This month is closed for billing: tracking time, readings and enrollment dated in it cannot be added or changed',
  alreadyClosed: 'This month is already closed',
  futureMonth: 'A month that has not ended cannot be closed',
  unknownTimeZone: 'Unknown time zone',
  notClosed: 'This month is not closed',
  claimsSent: 'The claims of this month were sent: it cannot be reopened',
  claimsAlreadySent: 'The claims of this month were already marked as sent',
} as const;

/** Refusals of tracking time beyond the field checks. */
export const TrackingErrors = {
  adjustmentReasonRequired: 'Give a reason to log more minutes than the timer measured',
  contactNotInteractive: 'A contact type needs an interactive contact',
} as const;
