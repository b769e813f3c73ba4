import type { ReactNode } from 'react';

/*
 * Navigation guards of spec section 2. Not built yet: until sign-in lands they let every page
 * render. The server refuses every API call without a session either way.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
export function RequireAdmin({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
export function PublicOnly({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
