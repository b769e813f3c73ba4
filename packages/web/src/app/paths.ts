/** Every route of spec section 2, defined once. */
export const paths = {
  dashboard: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  profile: '/profile',
  patients: '/patients',
  patientAdd: '/patients/add',
  patient: (id: number | string) => `/patients/${id}`,
  patientEdit: (id: number | string) => `/patients/${id}/edit`,
  db: '/db',
  register: '/register',
  users: '/users',
  organizationAdd: '/organizations/add',
  deviceAdd: '/devices/add',
  devices: '/devices',
  auditLogs: '/audit-logs',
} as const;
