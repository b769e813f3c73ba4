import { IngestionTexts, Labels } from '@rpm/contracts';

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
  /** Beyond the spec, for every role: after the spec's entries, which keep their order. */
  program: [{ label: 'Billing', path: '/billing' }],
} as const;
