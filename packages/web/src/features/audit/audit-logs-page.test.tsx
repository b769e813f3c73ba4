import { AUDIT_PAGE_SIZE_OPTIONS, AdminTexts, AuditLogColumns, Toasts, type AuditLog } from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import AuditLogsPage from './audit-logs-page.tsx';

const log = (id: number): AuditLog => ({
  id,
  timestamp: '2026-01-01T12:00:00.000Z',
  user_id: 1,
  ip_address: '10.0.0.1',
  action: `action.${id}`,
  resource_type: 'patient',
  resource_id: String(id),
  details: { fields: ['first_name'] },
  target_user_id: null,
  outcome: 'success',
  reason: null,
  user_agent: 'UA',
  request_id: `req-${id}`,
});

let requests: string[] = [];
const server = setupTestServer(
  http.get('/api/audit-logs', ({ request }) => {
    const url = new URL(request.url);
    requests.push(url.search);
    const limit = Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('offset'));
    const ids = Array.from({ length: Math.max(0, Math.min(limit, 25 - offset)) }, (_, i) => 25 - offset - i);
    return HttpResponse.json({ logs: ids.map(log), total: 25, snapshot: 25 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests = [];
});
afterAll(() => server.close());

const renderAuditPage = () => renderPage(<AuditLogsPage />);

// Generous timeout: user-event on a shared, busy machine.
describe('audit log page', { timeout: 20_000 }, () => {
  it('asks the server for pages of 10 by default, with every field shown', async () => {
    const user = userEvent.setup();
    renderAuditPage();
    const table = await screen.findByRole('table', { name: AdminTexts.auditLogsTitle });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([...AuditLogColumns]);
    await within(table).findByText('action.25');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(within(table).getAllByText('{"fields":["first_name"]}')).toHaveLength(10);
    expect(requests).toEqual(['?limit=10&offset=0']);

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await within(table).findByText('action.15');
    // Later pages are read against the first answer's snapshot.
    expect(requests.at(-1)).toBe('?limit=10&offset=10&snapshot=25');

    const rows = screen.getByRole('combobox', { name: /Rows per page/ });
    expect(within(rows).getAllByRole('option').map((o) => Number(o.textContent))).toEqual([...AUDIT_PAGE_SIZE_OPTIONS]);
    await user.selectOptions(rows, '50');
    await waitFor(() => expect(requests.at(-1)).toBe('?limit=50&offset=0&snapshot=25'));
  });

  it('keeps its snapshot while paging, takes a new one on Show newest, and shows times in one format', async () => {
    const user = userEvent.setup();
    renderAuditPage();
    const table = await screen.findByRole('table', { name: AdminTexts.auditLogsTitle });
    await within(table).findByText('action.25');
    const stamp = within(table).getAllByText('2026-01-01 12:00')[0]!;
    expect(stamp).toHaveAttribute('title', '2026-01-01T12:00:00.000Z');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await within(table).findByText('action.15');
    await user.click(screen.getByRole('button', { name: 'Go to previous page' }));
    await within(table).findByText('action.25');
    await user.click(screen.getByRole('button', { name: AdminTexts.auditShowNewest }));
    await waitFor(() => expect(requests.at(-1)).toBe('?limit=10&offset=0'));
    expect(requests).toEqual(['?limit=10&offset=0', '?limit=10&offset=10&snapshot=25', '?limit=10&offset=0&snapshot=25', '?limit=10&offset=0']);
  });

  it('says “Failed to load logs” when the server fails', async () => {
    server.use(http.get('/api/audit-logs', () => HttpResponse.json({ message: 'nope' }, { status: 500 })));
    renderAuditPage();
    expect((await screen.findAllByText(Toasts.failedToLoadLogs)).length).toBeGreaterThan(0);
  });
});
