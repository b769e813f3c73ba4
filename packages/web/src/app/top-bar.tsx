import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Button, IconButton, Toolbar, Typography } from '@mui/material';
import { AuthLabels, Labels, UxTexts } from '@rpm/contracts';
import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { paths } from '../config/paths.ts';
import { TimezoneSelect } from './timezone-select.tsx';

// Signed-in parts load with the first signed-in page: the sign-in page does not carry the menu.
const AccountMenu = lazy(() => import('./account-menu.tsx'));

interface TopBarProps {
  /** A narrow window: the timezone selector moves into the avatar menu. */
  compact: boolean;
  /** The drawer the menu button opens, when the sidebar is one. */
  navigation?: { drawerId: string; open: boolean; onOpen: () => void };
}

export function TopBar({ compact, navigation }: TopBarProps) {
  const { user, status } = useAuth();
  return (
    <AppBar position="static" component="header">
      <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
        {navigation && (
          <IconButton
            color="inherit"
            edge="start"
            aria-label={UxTexts.openNavigation}
            aria-controls={navigation.open ? navigation.drawerId : undefined}
            aria-expanded={navigation.open}
            aria-haspopup="true"
            onClick={navigation.onOpen}
          >
            <MenuIcon />
          </IconButton>
        )}
        <Typography
          variant="h6"
          component="div"
          // On a phone the name would push the avatar menu off-screen; the drawer shows it instead.
          sx={{ whiteSpace: 'nowrap', display: user && compact ? { xs: 'none', sm: 'block' } : 'block' }}
        >
          {AuthLabels.appName}
        </Typography>
        {user && (
          <Button color="inherit" component={RouterLink} to={paths.dashboard}>
            {Labels.dashboard}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        {user && !compact && <TimezoneSelect />}
        {user && (
          <Suspense fallback={null}>
            <AccountMenu withTimezone={compact} />
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
