import { AdminTexts, Toasts, Validation } from '@rpm/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import OrganizationAddPage from './organization-add-page.tsx';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const renderAddPage = () => renderPage(<OrganizationAddPage />);

describe('add organization', () => {
  it('requires a name, then says “Organization added”', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/api/organizations', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 5, name: 'Harbor' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderAddPage();
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Validation.organizationNameRequired)).toBeInTheDocument();
    expect(sent).toBeNull();
    await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.organizationName) }), '  Harbor ');
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.organizationAdded)).toBeInTheDocument();
    expect(sent).toEqual({ name: 'Harbor' });
  });

  it('says “Failed to add organization”, with the server’s reason by the field', async () => {
    server.use(http.post('/api/organizations', () => HttpResponse.json({ message: 'An organization with this name already exists' }, { status: 409 })));
    const user = userEvent.setup();
    renderAddPage();
    await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.organizationName) }), 'Harbor');
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.failedToAddOrganization)).toBeInTheDocument();
    expect(screen.getByText('An organization with this name already exists')).toBeInTheDocument();
  });
});
