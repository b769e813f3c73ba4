import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingState } from '../components/loading-state.tsx';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { paths } from '../config/paths.ts';
import { returnToPath } from '../lib/auth/return-to.ts';

const Checking = () => <LoadingState py={6} />;

/*
 * Navigation guards of spec section 2:
 * - while the session has expired, navigation is allowed (the Session Ended modal is up); the page
 *   behind it stays empty, so nothing of the last user's data stays on an unattended screen;
 * - a signed-in route without a user goes to /; / itself then sends the visitor to /login, so a
 *   signed-out visitor always ends on the login page and never loops;
 * - an admin route without the admin role goes to /;
 * - /login while signed in goes to /, or to the page that sent the visitor to sign in on purpose
 *   (lib/auth/return-to.ts: the EHR launch).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, user, expired } = useAuth();
  const { pathname } = useLocation();
  if (status === 'loading') return <Checking />;
  if (user) return <>{children}</>;
  if (expired) return null;
  return <Navigate to={pathname === paths.dashboard ? paths.login : paths.dashboard} replace />;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, user, expired } = useAuth();
  if (status === 'loading') return <Checking />;
  if (user?.role === 'admin') return <>{children}</>;
  if (expired && !user) return null;
  return <Navigate to={paths.dashboard} replace />;
}

export function PublicOnly({ children }: { children: ReactNode }) {
  const { status, user, expired } = useAuth();
  if (status === 'loading') return <Checking />;
  if (user && !expired) return <Navigate to={returnToPath() ?? paths.dashboard} replace />;
  return <>{children}</>;
}
