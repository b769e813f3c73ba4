import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { matchRoutes, useRoutes, type Params, type RouteObject } from 'react-router';
import { LoadingState } from '../components/loading-state.tsx';
import { NotFoundPage } from '../components/message-page.tsx';
import { prefetchPatientPage } from '../api/patients/prefetch-patient-page.ts';
import { RequireAdmin, RequireAuth, PublicOnly } from './guards.tsx';
import { Layout } from './layout.tsx';
import { paths } from '../config/paths.ts';
import { EhrLaunchPaths } from '@rpm/contracts';

// Pages load on demand, so the sign-in page does not carry the chart or the admin screens.
const LoginPage = lazyPage(() => import('../features/auth/login-page.tsx'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/forgot-password-page.tsx'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/reset-password-page.tsx'));
const DashboardPage = lazyPage(() => import('../features/dashboard/dashboard-page.tsx'));
const ProfilePage = lazyPage(() => import('../features/profile/profile-page.tsx'));
const PatientsPage = lazyPage(() => import('../features/patients/patients-page.tsx'));
const PatientFormPage = lazyPage(() => import('../features/patients/patient-form-page.tsx'));
const PatientDetailPage = lazyPage(() => import('../features/patients/patient-detail-page.tsx'));
const DbPage = lazyPage(() => import('../features/db/db-page.tsx'));
const RegisterPage = lazyPage(() => import('../features/users/register-page.tsx'));
const UsersPage = lazyPage(() => import('../features/users/users-page.tsx'));
const OrganizationAddPage = lazyPage(() => import('../features/organizations/organization-add-page.tsx'));
const DeviceAddPage = lazyPage(() => import('../features/devices/device-add-page.tsx'));
const DevicesPage = lazyPage(() => import('../features/devices/devices-page.tsx'));
const AuditLogsPage = lazyPage(() => import('../features/audit/audit-logs-page.tsx'));
const IntegrationsPage = lazyPage(() => import('../features/integrations/integrations-page.tsx'));
const UnmatchedReadingsPage = lazyPage(() => import('../features/devices/unmatched-readings-page.tsx'));
const AlertsPage = lazyPage(() => import('../features/alerts/alerts-page.tsx'));
const BillingPage = lazyPage(() => import('../features/billing/billing-page.tsx'));
const BillingEvidencePage = lazyPage(() => import('../features/billing/billing-evidence-page.tsx'));
const SummaryPage = lazyPage(() => import('../features/summaries/summary-page.tsx'));
const LaunchCompletePage = lazyPage(() => import('../features/ehr-launch/launch-complete-page.tsx'));

type PageModule = { default: ComponentType };
interface LazyPage {
  Page: LazyExoticComponent<ComponentType>;
  /** Fetches the page's code; React.lazy reuses the same module once it has arrived. */
  load(): Promise<PageModule>;
}
function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: PageModule | undefined;
  const loadOnce = () =>
    load().then((module) => {
      loaded = module;
      return module;
    });
  // Code that has already arrived (preloaded at start-up) is handed to React synchronously: a lazy
  // page that suspends, even on a settled promise, shows its fallback and React then holds the
  // real page back for up to 300 ms.
  const settled = (module: PageModule) => ({ then: (resolve: (m: PageModule) => void) => resolve(module) });
  const Page = lazy(() => (loaded ? (settled(loaded) as unknown as Promise<PageModule>) : loadOnce()));
  return { Page, load: loadOnce };
}

/** What a route can start before it renders: its code, and (signed in) its data. */
interface RouteHandle {
  load(): Promise<PageModule>;
  prefetch?(client: QueryClient, params: Params): void;
}

const PageLoading = () => <LoadingState py={6} />;

type Access = 'public-only' | 'public' | 'signed-in' | 'admin';

function page({ Page }: LazyPage, access: Access) {
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

function route(path: string, lazyPage: LazyPage, access: Access, prefetch?: RouteHandle['prefetch']): RouteObject {
  const handle: RouteHandle = { load: lazyPage.load, prefetch };
  return { path, element: page(lazyPage, access), handle };
}

/** The route table of spec section 2, with the access each route needs. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      route(paths.dashboard, DashboardPage, 'signed-in'),
      route(paths.login, LoginPage, 'public-only'),
      route(paths.forgotPassword, ForgotPasswordPage, 'public'),
      route(paths.resetPassword, ResetPasswordPage, 'public'),
      route(paths.profile, ProfilePage, 'signed-in'),
      route(paths.patients, PatientsPage, 'signed-in'),
      route(paths.patientAdd, PatientFormPage, 'signed-in'),
      route('/patients/:id/edit', PatientFormPage, 'signed-in'),
      route('/patients/:id/summary/:month', SummaryPage, 'signed-in'),
      route('/patients/:id', PatientDetailPage, 'signed-in', (client, params) => prefetchPatientPage(client, Number(params.id))),
      route(paths.billing, BillingPage, 'signed-in'),
      route('/billing/patients/:id', BillingEvidencePage, 'signed-in'),
      route(paths.db, DbPage, 'admin'),
      route(paths.register, RegisterPage, 'admin'),
      route(paths.users, UsersPage, 'admin'),
      route(paths.organizationAdd, OrganizationAddPage, 'admin'),
      route(paths.deviceAdd, DeviceAddPage, 'admin'),
      route(paths.unmatchedReadings, UnmatchedReadingsPage, 'admin'),
      route(paths.integrations, IntegrationsPage, 'admin'),
      route(paths.devices, DevicesPage, 'admin'),
      route(paths.auditLogs, AuditLogsPage, 'admin'),
      route(paths.alerts, AlertsPage, 'signed-in'),
      // Signed-in, but the page sends a signed-out visitor to sign in and back itself (the EHR's patient must not be lost).
      route(EhrLaunchPaths.complete, LaunchCompletePage, 'public'),
      // Unknown addresses say so rather than silently showing another page.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/*
 * The route table rendered by the declarative router (BrowserRouter/MemoryRouter around it), not
 * by a data router: the portal uses no loaders, actions or fetchers (pages load their own data
 * through the query cache), and the data router's code would be about a third of the router's
 * bytes on every first visit.
 */
export function AppRoutes() {
  return useRoutes(routes);
}

function handlesOf(pathname: string): RouteHandle[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap((m) => (m.route.handle ? [m.route.handle as RouteHandle] : []));
}

/**
 * At start-up: fetch the code of the page being opened while the session is still being checked.
 * Settles (never rejects) once that code has arrived or failed to.
 */
export function preloadRouteCode(pathname: string): Promise<unknown> {
  return Promise.all(handlesOf(pathname).map((handle) => handle.load().catch(() => {})));
}

/** Once a session is restored: ask for the opened page's data before the page has rendered. */
export function prefetchRouteData(client: QueryClient, pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    (match.route.handle as RouteHandle | undefined)?.prefetch?.(client, match.params);
  }
}
