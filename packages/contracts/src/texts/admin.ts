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
  auditSnapshotNote:
    'Newest first, as of when you opened this list: records written since then appear after Show newest.',
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
