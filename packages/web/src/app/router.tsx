import { CircularProgress, Box } from '@mui/material';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/message-page.tsx';
import { RequireAdmin, RequireAuth, PublicOnly } from './guards.tsx';
import { Layout } from './layout.tsx';
import { paths } from './paths.ts';

// Pages load on demand, so the sign-in page does not carry the chart or the admin screens.
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'));
const PatientsPage = lazy(() => import('../features/patients/patients-page.tsx'));
const PatientFormPage = lazy(() => import('../features/patients/patient-form-page.tsx'));
const PatientDetailPage = lazy(() => import('../features/patients/patient-detail-page.tsx'));
const DbPage = lazy(() => import('../features/db/db-page.tsx'));
const RegisterPage = lazy(() => import('../features/users/register-page.tsx'));
const UsersPage = lazy(() => import('../features/users/users-page.tsx'));
const OrganizationAddPage = lazy(() => import('../features/organizations/organization-add-page.tsx'));
const DeviceAddPage = lazy(() => import('../features/devices/device-add-page.tsx'));
const DevicesPage = lazy(() => import('../features/devices/devices-page.tsx'));
const AuditLogsPage = lazy(() => import('../features/audit/audit-logs-page.tsx'));
const IntegrationsPage = lazy(() => import('../features/integrations/integrations-page.tsx'));
const UnmatchedReadingsPage = lazy(() => import('../features/devices/unmatched-readings-page.tsx'));

function PageLoading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }} role="status" aria-label="Loading">
      <CircularProgress />
    </Box>
  );
}

type Access = 'public-only' | 'public' | 'signed-in' | 'admin';

function page(Page: LazyExoticComponent<ComponentType>, access: Access) {
  const content = (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
  if (access === 'public-only') return <PublicOnly>{content}</PublicOnly>;
  if (access === 'signed-in') return <RequireAuth>{content}</RequireAuth>;
  if (access === 'admin') return <RequireAdmin>{content}</RequireAdmin>;
  return content;
}

/** The route table of spec section 2, with the access each route needs. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: paths.dashboard, element: page(DashboardPage, 'signed-in') },
      { path: paths.login, element: page(LoginPage, 'public-only') },
      { path: paths.forgotPassword, element: page(ForgotPasswordPage, 'public') },
      { path: paths.resetPassword, element: page(ResetPasswordPage, 'public') },
      { path: paths.profile, element: page(ProfilePage, 'signed-in') },
      { path: paths.patients, element: page(PatientsPage, 'signed-in') },
      { path: paths.patientAdd, element: page(PatientFormPage, 'signed-in') },
      { path: '/patients/:id/edit', element: page(PatientFormPage, 'signed-in') },
      { path: '/patients/:id', element: page(PatientDetailPage, 'signed-in') },
      { path: paths.db, element: page(DbPage, 'admin') },
      { path: paths.register, element: page(RegisterPage, 'admin') },
      { path: paths.users, element: page(UsersPage, 'admin') },
      { path: paths.organizationAdd, element: page(OrganizationAddPage, 'admin') },
      { path: paths.deviceAdd, element: page(DeviceAddPage, 'admin') },
      { path: paths.unmatchedReadings, element: page(UnmatchedReadingsPage, 'admin') },
      { path: paths.integrations, element: page(IntegrationsPage, 'admin') },
      { path: paths.devices, element: page(DevicesPage, 'admin') },
      { path: paths.auditLogs, element: page(AuditLogsPage, 'admin') },
      // Unknown addresses say so rather than silently showing another page.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
