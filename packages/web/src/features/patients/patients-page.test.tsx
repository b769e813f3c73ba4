import { PatientTexts, TIMEZONE_STORAGE_KEY, type PatientListItem } from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { PatientList } from './patients-page.tsx';

const row = (id: number, first: string, last: string): PatientListItem => ({
  id,
  first_name: first,
  middle_name: null,
  last_name: last,
  date_of_birth: '1950-12-10',
  organization_id: 1,
  organization_name: 'North Clinic',
  enrolled_rpm: true,
  enrollment_status: 'Active',
  last_reading_at: id === 1 ? '2026-03-12T12:00:00.000Z' : null,
  open_alerts: id === 1 ? 2 : 0,
  minutes_this_month: id === 1 ? 35 : 0,
  device_days_this_month: id === 1 ? 9 : 0,
});

/** Every query string the page sent, in order. */
let requests: URLSearchParams[] = [];
const server = setupTestServer(
  http.get('/api/patients', ({ request }) => {
    const params = new URL(request.url).searchParams;
    requests.push(params);
    const offset = Number(params.get('offset') ?? 0);
    const items = params.get('q') === 'zz' ? [] : [row(offset + 1, 'Ada', `Lovelace${offset}`)];
    return HttpResponse.json({ items, total: items.length ? 60 : 0 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests = [];
});
afterAll(() => server.close());

const renderList = (isAdmin: boolean) =>
  renderPage(
    <Routes>
      <Route path="/patients" element={<PatientList isAdmin={isAdmin} />} />
    </Routes>,
    '/patients',
  );
const last = () => requests.at(-1)!;

describe('patient list', { timeout: 20_000 }, () => {
  it('asks the server for one page at a time, with the search once typing pauses', async () => {
    const user = userEvent.setup();
    renderList(false);
    await screen.findByText('Lovelace0');
    expect(Object.fromEntries(last())).toEqual({ limit: '25', offset: '0', sort: 'name', order: 'asc' });
    await user.type(screen.getByRole('searchbox', { name: PatientTexts.search }), 'núñez jo');
    await waitFor(() => expect(last().get('q')).toBe('núñez jo'));
    // One request for the whole word, not one per key.
    expect(requests.filter((r) => r.has('q'))).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: /next page/i }));
    await screen.findByText('Lovelace25');
    expect(last().get('offset')).toBe('25');
    expect(last().get('q')).toBe('núñez jo');
  });

  it('sorts by a column head (again for descending) and filters by status, back on the first page', async () => {
    const user = userEvent.setup();
    renderList(false);
    await screen.findByText('Lovelace0');
    await user.click(screen.getByRole('button', { name: /next page/i }));
    await screen.findByText('Lovelace25');
    await user.click(screen.getByRole('button', { name: PatientTexts.dateOfBirth }));
    await waitFor(() => expect(last().get('sort')).toBe('date_of_birth'));
    expect(last().get('order')).toBe('asc');
    expect(last().get('offset')).toBe('0');
    await user.click(screen.getByRole('button', { name: PatientTexts.dateOfBirth }));
    await waitFor(() => expect(last().get('order')).toBe('desc'));
    expect(screen.getByRole('columnheader', { name: PatientTexts.dateOfBirth })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    await user.click(screen.getByRole('combobox', { name: PatientTexts.statusFilter }));
    await user.click(await screen.findByRole('option', { name: PatientTexts.noStatus }));
    await waitFor(() => expect(last().get('status')).toBe('none'));
    await user.click(screen.getByRole('combobox', { name: PatientTexts.statusFilter }));
    await user.click(await screen.findByRole('option', { name: 'Paused' }));
    await waitFor(() => expect(last().get('status')).toBe('Paused'));
  });

  it('shows the spec columns and buttons, date of birth, and the organization for admins only', async () => {
    renderList(true);
    const table = await screen.findByRole('table', { name: PatientTexts.listTitle });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(heads).toEqual([
      PatientTexts.firstName,
      PatientTexts.lastName,
      PatientTexts.dateOfBirth,
      PatientTexts.status,
      PatientTexts.lastReading,
      PatientTexts.openAlerts,
      PatientTexts.minutesThisMonth,
      PatientTexts.deviceDaysThisMonth,
      PatientTexts.organization,
      PatientTexts.actions,
    ]);
    const ada = within(table).getByText('Lovelace0').closest('tr')!;
    expect(ada).toHaveTextContent('1950-12-10');
    expect(ada).toHaveTextContent('North Clinic');
    expect(within(ada).getByRole('link', { name: 'View Ada Lovelace0' })).toHaveAttribute('href', '/patients/1');
    expect(within(ada).getByRole('link', { name: 'Edit Ada Lovelace0' })).toHaveAttribute('href', '/patients/1/edit');
  });

  it('hides the organization from providers and says when nothing matches', async () => {
    const user = userEvent.setup();
    renderList(false);
    const table = await screen.findByRole('table', { name: PatientTexts.listTitle });
    expect(within(table).queryByRole('columnheader', { name: PatientTexts.organization })).not.toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: PatientTexts.search }), 'zz');
    expect(await screen.findByText(PatientTexts.noMatches)).toBeInTheDocument();
  });
});

describe('patient list triage columns', { timeout: 20_000 }, () => {
  it('shows the last reading, open alerts, minutes and days of the month', async () => {
    localStorage.setItem(TIMEZONE_STORAGE_KEY, 'UTC');
    renderList(false);
    const table = await screen.findByRole('table', { name: PatientTexts.listTitle });
    const heads = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    for (const title of [PatientTexts.lastReading, PatientTexts.openAlerts, PatientTexts.minutesThisMonth, PatientTexts.deviceDaysThisMonth]) {
      expect(heads).toContain(title);
    }
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(expect.arrayContaining(['2026-03-12 12:00', '2', '35', '9']));
    localStorage.removeItem(TIMEZONE_STORAGE_KEY);
  });

  it('sorts on the server by each new column, both ways', async () => {
    const user = userEvent.setup();
    renderList(false);
    await screen.findByText('Lovelace0');
    for (const [title, sort] of [
      [PatientTexts.lastReading, 'last_reading'],
      [PatientTexts.openAlerts, 'open_alerts'],
      [PatientTexts.minutesThisMonth, 'minutes_this_month'],
      [PatientTexts.deviceDaysThisMonth, 'device_days_this_month'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: title }));
      await waitFor(() => expect([last().get('sort'), last().get('order')]).toEqual([sort, 'asc']));
      await user.click(screen.getByRole('button', { name: title }));
      await waitFor(() => expect([last().get('sort'), last().get('order')]).toEqual([sort, 'desc']));
    }
  });

  it('keeps the wide list inside a container that scrolls sideways on a phone', async () => {
    renderList(true);
    const table = await screen.findByRole('table', { name: PatientTexts.listTitle });
    const wrapper = table.closest('.MuiTableContainer-root');
    expect(wrapper).not.toBeNull();
    expect(getComputedStyle(wrapper!).overflowX).toBe('auto');
  });
});
