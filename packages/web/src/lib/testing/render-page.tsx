import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { ToastHost } from '../toast/toast-host.tsx';

/**
 * Renders one page (or a small route table) with what pages need around them: a fresh query
 * client that does not retry (a failed answer shows at once), toasts, and a router at `path`.
 */
export function renderPage(ui: ReactNode, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      <ToastHost />
    </QueryClientProvider>,
  );
}
