import { Avatar, Divider, IconButton, Menu, MenuItem, Typography } from '@mui/material';
import { AuthLabels, Labels } from '@rpm/contracts';
import { useId, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { paths } from '../config/paths.ts';
import { TimezoneSelect } from './timezone-select.tsx';

// Loaded lazily by the top bar: the sign-in page does not carry the menu.
/** The avatar menu; on a phone it also holds the timezone selector the top bar has no room for. */
export default function AccountMenu({ withTimezone }: { withTimezone: boolean }) {
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
