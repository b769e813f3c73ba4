import { IngestionTexts } from './ingestion.ts';

/** Every user-facing text of the spec (sections 2, 5 and 8), word for word, defined once. */

export const Validation = {
  email: 'Enter a valid email',
  passwordsMismatch: 'Passwords do not match',
  passwordPolicy:
    'Password must be at least 8 characters and include upper, lower, number, and special character.',
  resetLinkInvalid: 'Reset link is invalid or has expired.',
  mfaCode: 'Enter a valid 6-digit code',
  insuranceType: 'Type is required',
  insuranceProvider: 'Provider is required',
  insurancePolicyNumber: 'Policy number is required',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  roleRequired: 'Role is required',
  organizationRequired: 'Organization is required',
  deviceIdRequired: 'Device ID is required',
  organizationNameRequired: 'Name is required',
} as const;

export const Toasts = {
  failedToLoadOptions: 'Failed to load options',
  registrationFailed: 'Registration failed',
  requestFailed: 'Request failed',
  failedToAddOrganization: 'Failed to add organization',
  failedToAddDevice: 'Failed to add device',
  failedToLoadLogs: 'Failed to load logs',
  loginFailed: 'Login failed',
  passwordChangeFailed: 'Password change failed',
  mfaFailed: 'MFA failed',
  sessionError: 'Session error',
  failedToLoadUser: 'Failed to load user',
  forgotPasswordSent: 'If an account exists, a password reset email has been sent.',
  passwordUpdated: 'Password updated',
  changePasswordFailed: 'Change password failed',
  failedToSetUpMfa: 'Failed to set up MFA',
  verificationFailed: 'Verification failed',
  disableMfaFailed: 'Disable MFA failed',
  passwordChanged: 'Password changed',
  mfaEnabled: 'MFA enabled',
  mfaDisabled: 'MFA disabled',
  scanQrCode: 'Scan the QR code, then enter the 6-digit code.',
  userCreated: 'User created',
  inviteResent: 'Invite resent',
  userEnabled: 'User enabled',
  userDisabled: 'User disabled',
  organizationAdded: 'Organization added',
  deviceAdded: 'Device added',
  mfaReset: 'MFA reset: the user sets it up again at the next sign-in',
  organizationSettingsSaved: 'Organization settings saved',
  failedToSaveOrganizationSettings: 'Failed to save organization settings',
} as const;

export const SessionTexts = {
  endedTitle: 'Session Ended',
  endedBody: 'Your session has expired. Please log in again.',
  leave: 'Leave',
} as const;

export const Labels = {
  next: 'Next',
  login: 'Login',
  forgotPassword: 'Forgot password?',
  show: 'Show',
  hide: 'Hide',
  setPassword: 'Set Password',
  verify: 'Verify',
  verifying: 'Verifying…',
  dashboard: 'Dashboard',
  profile: 'Profile',
  logout: 'Logout',
  loginLink: 'Login',
  patients: 'Patients',
  devices: 'Devices',
  users: 'Users',
  register: 'Register',
  addOrg: 'Add Org',
  db: 'DB',
  auditLogs: 'Audit Logs',
  addPatient: 'Add Patient',
  updatePatient: 'Update Patient',
  view: 'View',
  edit: 'Edit',
  enrollInRpm: 'Enroll in RPM',
  notAvailable: 'N/A',
  table: 'Table',
  figure: 'Figure',
  addNote: 'Add Note',
  addTrackingTime: 'Add Tracking Time',
  trackingTime: 'Tracking Time',
  save: 'Save',
  selectATable: 'Select a table',
  schema: 'Schema',
  sampleRows: 'Sample Rows',
  resendInvite: 'Resend Invite',
  resetMfa: 'Reset MFA',
  cancel: 'Cancel',
  enable: 'Enable',
  disable: 'Disable',
  setUpMfa: 'Set up MFA',
  disableMfa: 'Disable MFA',
  notBuiltYet: 'This page is not built yet.',
} as const;

/** Sidebar entries, in the spec's order (admins get the admin entries after Patients). */
export const SidebarEntries = {
  everyone: [{ label: Labels.patients, path: '/patients' }],
  admin: [
    { label: Labels.devices, path: '/devices' },
    { label: Labels.users, path: '/users' },
    { label: Labels.register, path: '/register' },
    { label: Labels.addOrg, path: '/organizations/add' },
    { label: Labels.db, path: '/db' },
    { label: Labels.auditLogs, path: '/audit-logs' },
    { label: IngestionTexts.integrationsTitle, path: '/integrations' },
  ],
} as const;

export const UsersTableColumns = [
  'ID',
  'Email',
  'Role',
  'Cognito Status',
  'Status',
  'Created',
  'Last Update',
  'Action',
] as const;

export const DbSchemaColumns = ['Column', 'Type', 'Nullable'] as const;

export const DevicesTableColumns = ['Device ID', 'Model', 'Type', 'Assigned To'] as const;

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
} as const;

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

/** Texts of the administration pages beyond the spec's own (headings, helper lines). */
export const AdminTexts = {
  registerTitle: 'Register User',
  usersTitle: 'Users',
  addOrganizationTitle: 'Add Organization',
  addDeviceTitle: 'Add Device',
  devicesTitle: 'Devices',
  auditLogsTitle: 'Audit Logs',
  dbTitle: 'Database Inspector',
  temporaryPassword: 'Temporary password',
  copy: 'Copy',
  copied: 'Copied',
  submit: 'Submit',
  noUsers: 'No users yet.',
  noDevices: 'No devices yet.',
  noLogs: 'No audit records.',
  noRows: 'No rows.',
  unassigned: 'Unassigned',
  withheldColumns: 'Withheld columns',
  failedToLoadUsers: 'Failed to load users',
  failedToLoadDevices: 'Failed to load devices',
  failedToLoadTables: 'Failed to load tables',
  failedToLoadTable: 'Failed to load table',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  title: 'Title',
  role: 'Role',
  organization: 'Organization',
  email: 'Email',
  organizationName: 'Name',
  deviceId: 'Device ID',
  model: 'Model',
  type: 'Type',
  table: 'Table',
  rowsShown: 'rows shown',
  userActions: 'Actions for',
  resetMfaConfirm: 'Reset MFA for this user? They will have to set up MFA again at their next sign-in.',
  organizationSettingsTitle: 'Organization Settings',
  requireMfa: 'Require MFA for every user of this organization',
  requireMfaHelp: 'Users without MFA must set it up at their next sign-in.',
  failedToLoadOrganizations: 'Failed to load organizations',
  noOrganizations: 'No organizations yet.',
  auditSnapshotNote: 'Newest first, as of when you opened this list: records written since then appear after Show newest.',
  auditShowNewest: 'Show newest',
} as const;

/**
 * The confirmation asked before an action that changes another person's access: a title naming
 * the action, what it does, and the button that does it.
 */
export const UserActionConfirmations = {
  'resend-invite': {
    title: 'Resend the invitation?',
    body: 'A new temporary password is e-mailed to this user; the one sent before stops working.',
    confirm: 'Resend Invite',
  },
  enable: {
    title: 'Enable this user?',
    body: 'This user can sign in again.',
    confirm: 'Enable',
  },
  disable: {
    title: 'Disable this user?',
    body: 'This user is signed out everywhere at once and cannot sign in until enabled again.',
    confirm: 'Disable',
  },
  'reset-mfa': {
    title: 'Reset MFA for this user?',
    body: 'Their authenticator app no longer works for this account; they set up MFA again from their profile, or at sign-in where MFA is required.',
    confirm: 'Reset MFA',
  },
} as const;

export const AuditLogColumns = [
  'Timestamp',
  'User ID',
  'IP Address',
  'Action',
  'Resource Type',
  'Resource ID',
  'Details',
  'Target User ID',
  'Outcome',
  'Reason',
  'User Agent',
  'Request ID',
] as const;

/** Field labels and headings of the sign-in, password and profile screens (not fixed by the spec). */
export const AuthLabels = {
  signInTitle: 'Sign in',
  email: 'Email',
  password: 'Password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  currentPassword: 'Current password',
  code: 'Code',
  startOver: 'Start over',
  newPasswordIntro: 'Choose a new password to finish signing in.',
  mfaIntro: 'Enter the 6-digit code from your authenticator app.',
  mfaSetupIntro: 'Scan the QR code with your authenticator app, then enter the 6-digit code.',
  qrCodeAlt: 'QR code for your authenticator app',
  cantScan: "Can't scan? Enter this key:",
  forgotPasswordTitle: 'Forgot password',
  forgotPasswordIntro: 'Enter your email and we will send you a link to reset your password.',
  sendResetLink: 'Send reset link',
  backToLogin: 'Back to login',
  resetPasswordTitle: 'Reset password',
  resetPasswordSubmit: 'Reset password',
  profileTitle: 'Profile',
  role: 'Role',
  changePassword: 'Change password',
  mfaTitle: 'Multi-factor authentication',
  mfaOn: 'MFA is enabled for your account.',
  mfaOff: 'MFA is not enabled for your account.',
  timezone: 'Timezone',
  accountMenu: 'Account menu',
  collapseSidebar: 'Collapse sidebar',
  expandSidebar: 'Expand sidebar',
  mainNavigation: 'Main navigation',
  welcome: 'Welcome to the remote patient monitoring portal.',
  appName: 'RPM Portal',
} as const;

/** Texts of the shell, the error pages, the discard confirmations and field checks beyond the spec's own. */
export const UxTexts = {
  openNavigation: 'Open navigation menu',
  closeNavigation: 'Close navigation menu',
  discardNoteTitle: 'Discard this note?',
  discardTrackingTitle: 'Discard this tracking entry?',
  discardBody: 'What you typed will be lost.',
  keepEditing: 'Keep editing',
  discard: 'Discard',
  trackingMinutesRange: 'Enter whole minutes from 1 to 1,440',
  trackingDateRequired: 'Date is required',
  passwordRequired: 'Enter your password',
  currentPasswordRequired: 'Enter your current password',
  resetCodeRequired: 'Enter the code from the email',
  resetPasswordIntro: 'Enter the code from the reset email and choose a new password.',
  haveCode: 'I have a code',
  notFoundTitle: 'Page not found',
  notFoundBody: 'There is nothing at this address. The link may be old or mistyped.',
  patientNotFoundTitle: 'Patient not found',
  patientNotFoundBody: 'There is no patient with this number that you can see. It may belong to another organization.',
  badLinkTitle: 'This link is not valid',
  badLinkBody: 'The address does not name a patient. It may have been cut off or mistyped.',
  backToPatients: 'Back to patients',
  backToDashboard: 'Back to the dashboard',
} as const;
