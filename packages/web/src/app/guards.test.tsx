import { AlertTexts, BillingTexts, IngestionTexts, Labels, SESSION_EXPIRED_FLAG_KEY, SessionTexts, AuthLabels } from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser, server, signInForTest, runPortalTestServer } from '../lib/testing/portal-test-server.ts';
import { renderApp } from '../lib/testing/render-app.tsx';

runPortalTestServer();

async function settlesAt(router: ReturnType<typeof renderApp>['router'], pathname: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(pathname));
}

describe('navigation guards', () => {
  it('sends a signed-out visitor of a signed-in route to /, and / on to /login', async () => {
    const { router } = renderApp('/patients');
    await settlesAt(router, '/login');
    expect(await screen.findByRole('heading', { name: AuthLabels.signInTitle })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: Labels.loginLink })).toBeInTheDocument();
  });

  it('sends a signed-out visitor of / to /login without looping', async () => {
    const { router } = renderApp('/');
    await settlesAt(router, '/login');
    expect(await screen.findByRole('button', { name: Labels.next })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a signed-out visitor of an admin route away to /login', async () => {
    const { router } = renderApp('/audit-logs');
    await settlesAt(router, '/login');
  });

  it('redirects a provider on an admin route to /', async () => {
    signInForTest(makeUser({ role: 'provider' }));
    const { router } = renderApp('/users');
    await settlesAt(router, '/');
    expect(await screen.findByRole('heading', { name: Labels.dashboard })).toBeInTheDocument();
  });

  it('lets an admin open an admin route', async () => {
    signInForTest(makeUser({ role: 'admin', email: 'ada.admin@example.com' }));
    const { router } = renderApp('/users');
    await screen.findByRole('navigation', { name: AuthLabels.mainNavigation });
    expect(router.state.location.pathname).toBe('/users');
  });

  it('redirects /login to / while signed in', async () => {
    signInForTest(makeUser());
    const { router } = renderApp('/login');
    await settlesAt(router, '/');
    expect(await screen.findByRole('heading', { name: Labels.dashboard })).toBeInTheDocument();
  });

  it('allows navigation while the session has expired and shows the Session Ended modal', async () => {
    sessionStorage.setItem(SESSION_EXPIRED_FLAG_KEY, '1');
    const { router } = renderApp('/patients');
    const dialog = await screen.findByRole('dialog', { name: SessionTexts.endedTitle });
    expect(dialog).toHaveTextContent(SessionTexts.endedBody);
    expect(router.state.location.pathname).toBe('/patients');
  });
});

describe('layout', () => {
  it('shows admins every sidebar entry in the spec order', async () => {
    signInForTest(makeUser({ role: 'admin' }));
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: AuthLabels.mainNavigation });
    const labels = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual([
      Labels.patients,
      // Beyond the spec: the alerts worklist, for every signed-in user, follows Patients.
      AlertTexts.navAlerts,
      Labels.devices,
      Labels.users,
      Labels.register,
      Labels.addOrg,
      Labels.db,
      Labels.auditLogs,
      // Beyond the spec: after its entries, which keep their order.
      IngestionTexts.integrationsTitle,
      BillingTexts.title,
    ]);
  });

  it('shows providers only Patients and Alerts (and Billing, beyond the spec), plus the Dashboard link, timezone selector and account menu', async () => {
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: AuthLabels.mainNavigation });
    expect(Array.from(nav.querySelectorAll('a')).map((a) => a.textContent)).toEqual([Labels.patients, AlertTexts.navAlerts, BillingTexts.title]);
    expect(screen.getByRole('link', { name: Labels.dashboard })).toHaveAttribute('href', '/');
    expect(screen.getByLabelText(AuthLabels.timezone)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: AuthLabels.accountMenu })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: Labels.loginLink })).not.toBeInTheDocument();
  });
});

describe('alert summary', () => {
  it('badges the Alerts entry with the active alerts the worklist lists, and shows them by severity on the dashboard', async () => {
    server.use(
      http.get('/api/alerts/summary', () =>
        HttpResponse.json({ open: 7, patients: 3, by_severity: { critical: 2, warning: 4, info: 1 }, escalated: 1, stale_patients: 1 }),
      ),
    );
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/');
    const badge = await screen.findByTestId('alerts-badge');
    expect(badge).toHaveAccessibleName(AlertTexts.badgeActive(7));
    expect(badge).toHaveTextContent('7');
    const overview = (await screen.findByRole('heading', { name: AlertTexts.dashboardAlertsTitle })).closest('div')!;
    expect(overview).toHaveTextContent('7');
    for (const [severity, n] of [['critical', 2], ['warning', 4], ['info', 1]] as const)
      expect(within(overview).getByText(AlertTexts.severities[severity]).closest('div')?.parentElement).toHaveTextContent(
        `${AlertTexts.severities[severity]}${n}`,
      );
    expect(screen.getByTestId('alerts-overview-escalated')).toHaveTextContent(`${AlertTexts.escalated}1`);
  });
});
