import { AdminTexts, DbSchemaColumns, Labels, TIMEZONE_STORAGE_KEY } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import DbPage from './db-page.tsx';

const server = setupTestServer(
  http.get('/api/db/tables', () => HttpResponse.json({ tables: ['devices', 'users'] })),
  http.get('/api/db/schema/users', () =>
    HttpResponse.json({
      table: 'users',
      columns: [
        { name: 'email', type: 'text', nullable: false },
        { name: 'title', type: 'text', nullable: true },
      ],
      withheld: ['cognito_sub'],
    }),
  ),
  http.get('/api/db/sample/users', () =>
    HttpResponse.json({
      table: 'users',
      columns: ['email', 'mfa_enabled', 'created_at', 'title'],
      rows: [{ email: 'a@example.com', mfa_enabled: false, created_at: '2026-01-10T23:30:00.000Z', title: 'x'.repeat(300) }],
      withheld: ['cognito_sub'],
      limit: 50,
    }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('database inspector page', { timeout: 20_000 }, () => {
  it('starts with “Select a table”, then shows the schema and sample rows with booleans as true/false', async () => {
    const u = userEvent.setup();
    renderPage(<DbPage />);
    const select = await screen.findByRole('combobox', { name: AdminTexts.table });
    expect(select).toHaveTextContent(Labels.selectATable);
    await u.click(select);
    await u.click(await screen.findByRole('option', { name: 'users' }));

    const schema = await screen.findByRole('table', { name: Labels.schema });
    expect(within(schema).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([...DbSchemaColumns]);
    expect(within(schema).getByText('true')).toBeInTheDocument();
    expect(within(schema).getByText('false')).toBeInTheDocument();
    expect(screen.getByText(`${AdminTexts.withheldColumns}: cognito_sub`)).toBeInTheDocument();
    const sample = await screen.findByRole('table', { name: Labels.sampleRows });
    expect(within(sample).getByText('a@example.com')).toBeInTheDocument();
    expect(within(sample).getByText('false')).toBeInTheDocument();
  });

  it('shows timestamps in the one format and time zone, and long values on one line with the full value on hover', async () => {
    localStorage.setItem(TIMEZONE_STORAGE_KEY, 'Asia/Tokyo');
    const u = userEvent.setup();
    renderPage(<DbPage />);
    await u.click(await screen.findByRole('combobox', { name: AdminTexts.table }));
    await u.click(await screen.findByRole('option', { name: 'users' }));
    const sample = await screen.findByRole('table', { name: Labels.sampleRows });
    const stamp = within(sample).getByText('2026-01-11 08:30');
    expect(stamp).toHaveAttribute('title', '2026-01-10T23:30:00.000Z');
    const long = within(sample).getByText('x'.repeat(300));
    expect(long).toHaveAttribute('title', 'x'.repeat(300));
    expect(long).toHaveStyle({ whiteSpace: 'nowrap', textOverflow: 'ellipsis' });
  });
});
