import { AdminTexts, DeviceTypeLabels, DevicesTableColumns, Toasts, Validation } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import DeviceAddPage from './device-add-page.tsx';
import DevicesPage from './devices-page.tsx';

let bodies: unknown[] = [];
const server = setupTestServer(
  http.get('/api/unmatched-readings', () => HttpResponse.json({ items: [], total: 0 })),
  http.get('/api/devices', () =>
    HttpResponse.json([
      {
        id: 1,
        device_id: 'BP-1',
        model: 'BP5',
        type: 'cuff',
        patient_id: 4,
        battery_level: null,
        battery_at: null,
        patient: { first_name: 'Ann', last_name: 'Lee', date_of_birth: '1950-02-03' },
      },
      { id: 2, device_id: 'BP-2', model: null, type: null, patient_id: null, battery_level: null, battery_at: null, patient: null },
    ]),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  bodies = [];
});
afterAll(() => server.close());

const wrap = (ui: ReactNode) => renderPage(ui);

// Generous timeout: typing into MUI fields is slow on a shared, busy machine.
describe('devices', { timeout: 20_000 }, () => {
  it('lists devices with the patient and date of birth they are assigned to', async () => {
    wrap(<DevicesPage />);
    const table = await screen.findByRole('table', { name: AdminTexts.devicesTitle });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([...DevicesTableColumns]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['BP-1', 'BP5', DeviceTypeLabels.cuff, 'Ann Lee (1950-02-03)']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['BP-2', '', '', AdminTexts.unassigned]);
  });

  it('requires a device id, sends only what was filled in, and says “Device added”', async () => {
    server.use(
      http.post('/api/devices', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          {
            id: 3,
            device_id: 'BP-3',
            model: null,
            type: 'cuff',
            patient_id: null,
            battery_level: null,
            battery_at: null,
            patient: null,
          },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    wrap(<DeviceAddPage />);
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Validation.deviceIdRequired)).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.deviceId) }), ' BP-3 ');
    await user.selectOptions(screen.getByRole('combobox', { name: AdminTexts.type }), DeviceTypeLabels.cuff!);
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.deviceAdded)).toBeInTheDocument();
    expect(bodies).toEqual([{ device_id: 'BP-3', type: 'cuff' }]);
  });

  it('shows the server’s detail, or “Failed to add device” without one', async () => {
    server.use(
      http.post('/api/devices', () =>
        HttpResponse.json({ message: 'A device with this device ID already exists' }, { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    wrap(<DeviceAddPage />);
    await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.deviceId) }), 'BP-1');
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText('A device with this device ID already exists')).toBeInTheDocument();

    server.use(http.post('/api/devices', () => HttpResponse.error()));
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.failedToAddDevice)).toBeInTheDocument();
  });
});
