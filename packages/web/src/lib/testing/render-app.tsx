import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { Providers } from '../../app/providers.tsx';
import { AppRoutes } from '../../app/router.tsx';

/** Keeps the address the app is at, for tests to read. */
function LocationProbe({ seen }: { seen: { current: Location | null } }) {
  const location = useLocation();
  useLayoutEffect(() => {
    seen.current = location;
  }, [location, seen]);
  return null;
}

/**
 * Renders the whole app (real providers, real route table and guards) at `path`, under the same
 * declarative router as the app (see AppRoutes). `router.state.location` is where it is now.
 */
export function renderApp(path: string) {
  const seen: { current: Location | null } = { current: null };
  const result = render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe seen={seen} />
      </MemoryRouter>
    </Providers>,
  );
  const router = {
    get state() {
      if (!seen.current) throw new Error('renderApp: the router has not rendered yet');
      return { location: seen.current };
    },
  };
  return { ...result, router };
}
