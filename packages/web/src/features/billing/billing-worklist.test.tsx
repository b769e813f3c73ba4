import {
  BILLING_PERIOD_DAYS,
  BillingCodes,
  DEVICE_DAYS_FULL,
  BILLING_PAGE_SIZE,
  billingNeedsText,
  BillingPageTexts,
  BillingTexts,
  type BillingWorklist,
  type BillingWorklistRow,
  type Organization,
  type ProgramList,
  type ProvidersResponse,
} from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser, runPortalTestServer, server, signInForTest } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

const row = (
  over: Partial<BillingWorklistRow> & Pick<BillingWorklistRow, 'patient_id' | 'patient_name'>,
): BillingWorklistRow => ({
  organization_id: 1,
  primary_provider_id: 11,
  primary_provider: 'Dana Doctor',
  programs: ['hypertension'],
  active: true,
  period_start: '2026-11-01',
  period_end: '2026-11-30',
  device_days: 10,
  days_left: 4,
  device_outlook: 'full_reachable',
  minutes: 0,
  next_minutes: 10,
  interactive: false,
  codes: [],
  needs: { code: null, minutes: 0, contact: false, days: 0, within_days: 0 },
  at_risk: false,
  last_reading_at: null,
  last_outreach_at: null,
  ...over,
});

// As the server ranks them: what can still be earned, at risk first.
const rows: BillingWorklistRow[] = [
  row({
    patient_id: 21,
    patient_name: 'Ada Atrisk',
    device_days: 9,
    days_left: 4,
    device_outlook: 'short_earned',
    minutes: 4,
    next_minutes: 10,
    needs: { code: '99470', minutes: 6, contact: true, days: 0, within_days: 0 },
    at_risk: true,
    last_reading_at: '2026-11-20T15:00:00Z',
  }),
  row({
    patient_id: 22,
    patient_name: 'Ben Close',
    device_days: 12,
    days_left: 5,
    minutes: 25,
    next_minutes: 40,
    interactive: true,
    needs: { code: '99454', minutes: 0, contact: false, days: 4, within_days: 5 },
    last_reading_at: '2026-11-25T15:00:00Z',
    last_outreach_at: '2026-11-10T14:30:00Z',
  }),
  row({
    patient_id: 23,
    patient_name: 'Cy Done',
    device_days: 18,
    days_left: 2,
    device_outlook: 'full_earned',
    minutes: 41,
    next_minutes: 60,
    interactive: true,
    primary_provider_id: 12,
    primary_provider: 'Eli Nurse',
  }),
];

const worklist: BillingWorklist = {
  month: '2026-11',
  today: '2026-11-26',
  rows,
  total: rows.length,
  limit: 50,
  offset: 0,
};

function answer(calls: string[], reply: () => Response = () => HttpResponse.json(worklist)) {
  server.use(
    http.get('/api/billing/worklist', ({ request }) => {
      calls.push(new URL(request.url).search);
      return reply();
    }),
    http.get('/api/organizations', () => HttpResponse.json([{ id: 1, name: 'North Clinic' }] satisfies Organization[])),
    http.get('/api/organizations/1/providers', () =>
      HttpResponse.json([
        { id: 11, name: 'Dana Doctor' },
        { id: 12, name: 'Eli Nurse' },
      ] satisfies ProvidersResponse),
    ),
    http.get('/api/programs', () =>
      HttpResponse.json({
        items: [
          { id: 'hypertension', label: 'Hypertension', kinds: ['blood_pressure'], built_in: true },
          { id: 'heart_failure', label: 'Heart failure', kinds: ['body_weight'], built_in: true },
        ],
      } satisfies ProgramList),
    ),
  );
}

const names = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

const findWorklist = () => screen.findByRole('table', { name: BillingPageTexts.worklistTitle }, { timeout: 15_000 });

describe('billing worklist', { timeout: 30_000 }, () => {
  it('opens /billing on this month’s worklist: days and what they can reach, minutes, contact, the action, risk, last contacts', async () => {
    const calls: string[] = [];
    answer(calls);
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    renderApp('/billing');
    const table = await findWorklist();
    expect(screen.getByRole('tab', { name: BillingPageTexts.worklistTab })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName(BillingPageTexts.worklistTab);
    expect(names(table)).toEqual(['Ada Atrisk', 'Ben Close', 'Cy Done']);
    const cells = within(screen.getByTestId('worklist-row-21'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual([
      'Ada Atrisk',
      BillingPageTexts.atRisk,
      `${BillingPageTexts.deviceDaysCell(9, 4)}${BillingPageTexts.outlook.short_earned}`,
      BillingPageTexts.minutesCell(4, 10),
      BillingTexts.no,
      billingNeedsText(rows[0]!.needs),
      // The top bar's time zone is the browser's: the test runs in UTC.
      expect.stringMatching(/^2026-11-2\d \d\d:00$/),
      BillingPageTexts.never,
      'Dana Doctor',
    ]);
    expect(within(screen.getByTestId('worklist-row-21')).getByRole('link', { name: 'Ada Atrisk' })).toHaveAttribute(
      'href',
      '/patients/21',
    );
    expect(screen.getByTestId('worklist-row-22')).toHaveTextContent(billingNeedsText(rows[1]!.needs));
    expect(screen.getByTestId('worklist-row-22')).not.toHaveTextContent(BillingPageTexts.atRisk);
    expect(screen.getByTestId('worklist-row-23')).toHaveTextContent(billingNeedsText(rows[2]!.needs));
    expect(screen.getByTestId('worklist-as-of')).toHaveTextContent(
      BillingPageTexts.worklistAsOf('2026-11', '2026-11-26'),
    );
    // The current month is the server's: no month is asked for, and the report's closing is not here.
    expect(calls).toEqual(['']);
    expect(screen.queryByRole('button', { name: BillingTexts.closeMonth })).not.toBeInTheDocument();
  });

  it('filters by provider and program through the address, so a reload keeps them', async () => {
    const calls: string[] = [];
    answer(calls);
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    const user = userEvent.setup();
    const { router, unmount } = renderApp('/billing');
    await findWorklist();
    await user.click(await screen.findByRole('combobox', { name: BillingPageTexts.program }));
    await user.click(await screen.findByRole('option', { name: 'Heart failure' }));
    await user.click(screen.getByRole('combobox', { name: BillingPageTexts.provider }));
    await user.click(await screen.findByRole('option', { name: 'Eli Nurse' }));
    await waitFor(() => expect(calls.at(-1)).toBe('?provider_id=12&program=heart_failure'));
    const address = `${router.state.location.pathname}${router.state.location.search}`;
    expect(new URLSearchParams(router.state.location.search).get('program')).toBe('heart_failure');
    unmount();

    calls.length = 0;
    renderApp(address);
    await findWorklist();
    expect(calls).toEqual(['?provider_id=12&program=heart_failure']);
    expect(await screen.findByRole('combobox', { name: BillingPageTexts.program })).toHaveTextContent('Heart failure');
    expect(await screen.findByRole('combobox', { name: BillingPageTexts.provider })).toHaveTextContent('Eli Nurse');
  });

  it('has the server sort every row by a column heading (its first direction, the other, then its own order), from the first page', async () => {
    const calls: string[] = [];
    // The server's answer to a sort: the rows in the order it asked for (here, by minutes).
    const byMinutes = (desc: boolean) => [...rows].sort((a, b) => (a.minutes - b.minutes) * (desc ? -1 : 1));
    answer(calls, () => {
      const search = new URLSearchParams(calls.at(-1));
      const sorted = search.get('sort') === 'minutes' ? byMinutes(search.get('order') === 'desc') : rows;
      return HttpResponse.json({ ...worklist, rows: sorted, total: 120 } satisfies BillingWorklist);
    });
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    const user = userEvent.setup();
    renderApp('/billing?page=2');
    const table = await findWorklist();
    const minutes = () => within(table).getByRole('button', { name: BillingPageTexts.minutes });
    const heading = () => within(table).getByRole('columnheader', { name: BillingPageTexts.minutes });
    expect(heading()).not.toHaveAttribute('aria-sort');
    expect(calls.at(-1)).toBe('?offset=100');

    await user.click(minutes());
    await waitFor(() => expect(calls.at(-1)).toBe('?sort=minutes&order=asc'));
    await waitFor(() => expect(names(table)).toEqual(byMinutes(false).map((r) => r.patient_name)));
    expect(heading()).toHaveAttribute('aria-sort', 'ascending');
    await user.click(minutes());
    await waitFor(() => expect(calls.at(-1)).toBe('?sort=minutes&order=desc'));
    await waitFor(() => expect(names(table)).toEqual(byMinutes(true).map((r) => r.patient_name)));
    expect(heading()).toHaveAttribute('aria-sort', 'descending');
    await user.click(minutes());
    await waitFor(() => expect(calls.at(-1)).toBe(''));
    expect(heading()).not.toHaveAttribute('aria-sort');
    expect(names(table)).toEqual(['Ada Atrisk', 'Ben Close', 'Cy Done']);

    // The newest reading first: its first click asks for descending.
    await user.click(within(table).getByRole('button', { name: BillingPageTexts.lastReading }));
    await waitFor(() => expect(calls.at(-1)).toBe('?sort=last_reading&order=desc'));
  });

  it('says when a patient has no device reading yet, rather than a period with no days left', async () => {
    const waiting = row({
      patient_id: 24,
      patient_name: 'Dee New',
      period_start: null,
      period_end: null,
      device_days: 0,
      days_left: 0,
      needs: {
        code: BillingCodes.device,
        minutes: 0,
        contact: false,
        days: DEVICE_DAYS_FULL,
        within_days: BILLING_PERIOD_DAYS,
      },
    });
    answer([], () => HttpResponse.json({ ...worklist, rows: [waiting], total: 1 } satisfies BillingWorklist));
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    renderApp('/billing');
    await findWorklist();
    expect(within(screen.getByTestId('worklist-row-24')).getAllByRole('cell')[2]).toHaveTextContent(
      `${BillingPageTexts.noDevicePeriod}${BillingPageTexts.outlook.full_reachable}`,
    );
  });

  it('says when no enrolled patient matches', async () => {
    answer([], () => HttpResponse.json({ ...worklist, rows: [], total: 0 } satisfies BillingWorklist));
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    renderApp('/billing?view=worklist&program=heart_failure');
    expect(await screen.findByText(BillingPageTexts.noWorklistRows, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says the worklist failed to load', async () => {
    answer([], () => new HttpResponse(null, { status: 500 }));
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    renderApp('/billing');
    expect(await screen.findByText(BillingPageTexts.failedToLoadWorklist, {}, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('gives an admin the organization filter; providers are listed once an organization is chosen', async () => {
    const calls: string[] = [];
    answer(calls);
    server.use(
      http.get('/api/organizations', () =>
        HttpResponse.json([
          { id: 1, name: 'North Clinic' },
          { id: 2, name: 'South Clinic' },
        ] satisfies Organization[]),
      ),
    );
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    const user = userEvent.setup();
    renderApp('/billing');
    await findWorklist();
    expect(screen.getByRole('combobox', { name: BillingPageTexts.provider })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText(BillingPageTexts.providerNeedsOrganization)).toBeInTheDocument();
    await user.click(await screen.findByRole('combobox', { name: BillingTexts.organization }));
    await user.click(await screen.findByRole('option', { name: 'North Clinic' }));
    await waitFor(() => expect(calls.at(-1)).toBe('?organization_id=1'));
    await user.click(screen.getByRole('combobox', { name: BillingPageTexts.provider }));
    await user.click(await screen.findByRole('option', { name: 'Dana Doctor' }));
    await waitFor(() => expect(calls.at(-1)).toBe('?organization_id=1&provider_id=11'));
  });

  it('pages through the server’s rows with named buttons, announcing the position; a filter starts again at page one', async () => {
    const calls: string[] = [];
    // 120 matching rows: the server answers the page asked for, as its offset says.
    answer(calls, () => HttpResponse.json(worklist));
    server.use(
      http.get('/api/billing/worklist', ({ request }) => {
        const url = new URL(request.url);
        calls.push(url.search);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? BILLING_PAGE_SIZE);
        return HttpResponse.json({ ...worklist, total: 120, limit, offset } satisfies BillingWorklist);
      }),
    );
    signInForTest(makeUser({ role: 'provider', organization_id: 1 }));
    const user = userEvent.setup();
    renderApp('/billing');
    await findWorklist();
    const pager = screen.getByRole('navigation', { name: BillingPageTexts.pager });
    expect(within(pager).getByRole('status')).toHaveTextContent(BillingPageTexts.showing(1, 50, 120));
    expect(within(pager).getByRole('button', { name: BillingPageTexts.pageButton.previous })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: BillingPageTexts.pageButton.next }));
    await waitFor(() => expect(calls.at(-1)).toBe('?offset=50'));
    expect(await within(pager).findByText(BillingPageTexts.showing(51, 100, 120))).toHaveAttribute('role', 'status');

    await user.click(within(pager).getByRole('button', { name: BillingPageTexts.pageButton.last }));
    await waitFor(() => expect(calls.at(-1)).toBe('?offset=100'));
    expect(await within(pager).findByText(BillingPageTexts.showing(101, 120, 120))).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: BillingPageTexts.pageButton.next })).toBeDisabled();

    await user.selectOptions(within(pager).getByRole('combobox', { name: BillingPageTexts.rowsPerPage }), '100');
    await waitFor(() => expect(calls.at(-1)).toBe('?limit=100'));

    await user.click(within(pager).getByRole('button', { name: BillingPageTexts.pageButton.next }));
    await waitFor(() => expect(calls.at(-1)).toBe('?limit=100&offset=100'));
    await user.click(screen.getByRole('combobox', { name: BillingPageTexts.program }));
    await user.click(await screen.findByRole('option', { name: 'Hypertension' }));
    await waitFor(() => expect(calls.at(-1)).toBe('?program=hypertension&limit=100'));
  });
});
