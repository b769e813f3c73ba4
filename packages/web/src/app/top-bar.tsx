import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Avatar, Box, Button, Divider, IconButton, Menu, MenuItem, Toolbar, Typography } from '@mui/material';
import { AuthLabels, Labels, UxTexts } from '@rpm/contracts';
import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { listTimezones, useTimezone } from '../lib/timezone.ts';
import { paths } from './paths.ts';

function TimezoneSelect({ inMenu = false }: { inMenu?: boolean }) {
  const { timezone, setTimezone } = useTimezone();
  const id = useId();
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1, ...(inMenu && { px: 2, py: 1 }) }}
      // Inside the menu, arrow keys and typed letters belong to the select, not to the menu's own
      // keyboard navigation.
      onKeyDown={inMenu ? (e) => e.stopPropagation() : undefined}
    >
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
          border: inMenu ? 1 : 'none',
          borderColor: 'divider',
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

/** The avatar menu; on a phone it also holds the timezone selector the top bar has no room for. */
function AccountMenu({ withTimezone }: { withTimezone: boolean }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!user) return null;
  const close = () => setAnchor(null);
  const handleProfile = () => {
    close();
    navigate(paths.profile);
  };
  const handleLogout = () => {
    close();
    navigate(paths.login, { replace: true });
    void logout();
  };
  return (
    <>
      <IconButton
        aria-label={AuthLabels.accountMenu}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
        sx={{ p: 0.5 }}
      >
        <Avatar sx={{ width: 34, height: 34, bgcolor: 'common.white', color: 'primary.main', fontSize: 16 }}>
          {user.email.charAt(0).toUpperCase()}
        </Avatar>
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem disabled divider sx={{ '&.Mui-disabled': { opacity: 1 } }}>
          <Typography variant="body2" color="text.secondary">
            {user.email}
          </Typography>
        </MenuItem>
        {withTimezone && <TimezoneSelect inMenu />}
        {withTimezone && <Divider />}
        <MenuItem onClick={handleProfile}>{Labels.profile}</MenuItem>
        <MenuItem onClick={handleLogout}>{Labels.logout}</MenuItem>
      </Menu>
    </>
  );
}

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
        {user && <AccountMenu withTimezone={compact} />}
        {!user && status !== 'loading' && (
          <Button color="inherit" component={RouterLink} to={paths.login}>
            {Labels.loginLink}
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}
