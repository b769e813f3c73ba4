import { EhrLaunchErrors, EhrLaunchTexts, type EhrLaunchSettings } from '@rpm/contracts';
import { EhrLaunchSection } from './ehr-launch-section.tsx';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const saved: EhrLaunchSettings = {
  organization_id: 5,
  iss: null,
  client_id: null,
  patient_identifier_system: null,
  launch_url: 'https://portal.example/ehr/launch',
  redirect_url: 'https://portal.example/ehr/callback',
};
const sent: unknown[] = [];
const server = setupTestServer(
  http.get('/api/organizations', () => HttpResponse.json([{ id: 5, name: 'Harbor' }])),
  http.get('/api/organizations/5/ehr-launch', () => HttpResponse.json(saved)),
  http.put('/api/organizations/5/ehr-launch', async ({ request }) => {
    const body = (await request.json()) as Record<string, string | null>;
    sent.push(body);
    if (body.iss?.startsWith('http:')) return HttpResponse.json({ message: EhrLaunchErrors.issNotHttps }, { status: 400 });
    return HttpResponse.json({ ...saved, ...body });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('EHR launch settings', { timeout: 30_000 }, () => {
  it('shows the URLs to register, saves the EHR trimmed, and says what the server refused', async () => {
    const user = userEvent.setup();
    renderPage(<EhrLaunchSection />);
    expect(await screen.findByDisplayValue(saved.launch_url)).toBeInTheDocument();
    expect(screen.getByLabelText(EhrLaunchTexts.redirectUrlLabel)).toHaveValue(saved.redirect_url);
    const iss = screen.getByLabelText(EhrLaunchTexts.issLabel);
    await waitFor(() => expect(iss).toBeEnabled());

    await user.type(iss, 'http://ehr.example/fhir');
    await user.type(screen.getByLabelText(EhrLaunchTexts.clientIdLabel), 'portal');
    await user.click(screen.getByRole('button', { name: EhrLaunchTexts.save }));
    expect(await screen.findByText(EhrLaunchErrors.issNotHttps)).toBeInTheDocument();

    await user.clear(iss);
    await user.type(iss, ' https://ehr.example/fhir ');
    await user.type(screen.getByLabelText(EhrLaunchTexts.identifierSystemLabel), 'urn:oid:1.2.3');
    await user.click(screen.getByRole('button', { name: EhrLaunchTexts.save }));
    expect(await screen.findByText(EhrLaunchTexts.saved)).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ iss: 'https://ehr.example/fhir', client_id: 'portal', patient_identifier_system: 'urn:oid:1.2.3' });
  });
});
