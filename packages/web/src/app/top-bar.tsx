import { AppBar, Box, Button, Toolbar, Typography } from '@mui/material';
import { AuthLabels, Labels } from '@rpm/contracts';
import { lazy, Suspense, useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { listTimezones, useTimezone } from '../lib/timezone.ts';
import { paths } from './paths.ts';

function TimezoneSelect() {
  const { timezone, setTimezone } = useTimezone();
  const id = useId();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography component="label" htmlFor={id} variant="body2">
        {AuthLabels.timezone}
      </Typography>
      {/* A native select: long lists stay fast, and keyboard and screen readers work as usual. */}
      <Box
        component="select"
        id={id}
        value={timezone}
        onChange={(e) => setTimezone(e.target.value)}
        sx={{
          maxWidth: { xs: 140, sm: 220 },
          p: 0.75,
          borderRadius: 1,
          border: 'none',
          font: 'inherit',
          fontSize: 14,
          bgcolor: 'common.white',
          color: 'text.primary',
        }}
      >
        {listTimezones().map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </Box>
    </Box>
  );
}

// Signed-in parts load with the first signed-in page: the sign-in page does not carry the menu.
const AccountMenu = lazy(() => import('./account-menu.tsx'));

export function TopBar() {
  const { user, status } = useAuth();
  return (
    <AppBar position="static" component="header">
      <Toolbar sx={{ gap: 2 }}>
        <Typography variant="h6" component="div" sx={{ whiteSpace: 'nowrap' }}>
          {AuthLabels.appName}
        </Typography>
        {user && (
          <Button color="inherit" component={RouterLink} to={paths.dashboard}>
            {Labels.dashboard}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        {user && <TimezoneSelect />}
        {user && (
          <Suspense fallback={null}>
            <AccountMenu />
          </Suspense>
        )}
        {!user && status !== 'loading' && (
          <Button color="inherit" component={RouterLink} to={paths.login}>
            {Labels.loginLink}
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
