import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import GroupIcon from '@mui/icons-material/Group';
import HistoryIcon from '@mui/icons-material/History';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import StorageIcon from '@mui/icons-material/Storage';
import {
  Box,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Tooltip,
} from '@mui/material';
import { AuthLabels, SidebarEntries, type Role } from '@rpm/contracts';
import type { ReactElement } from 'react';
import { NavLink } from 'react-router';

const ICONS: Record<string, ReactElement> = {
  '/patients': <GroupIcon />,
  '/devices': <DevicesIcon />,
  '/users': <ManageAccountsIcon />,
  '/register': <PersonAddIcon />,
  '/organizations/add': <AddBusinessIcon />,
  '/db': <StorageIcon />,
  '/audit-logs': <HistoryIcon />,
};

/** Patients for everyone; admins also get the admin entries, in the spec's order. */
export function sidebarEntriesFor(role: Role) {
  return role === 'admin' ? [...SidebarEntries.everyone, ...SidebarEntries.admin] : [...SidebarEntries.everyone];
}

export function Sidebar({
  role,
  collapsed,
  width,
  onToggle,
}: {
  role: Role;
  collapsed: boolean;
  width: number;
  onToggle: () => void;
}) {
  const toggleLabel = collapsed ? AuthLabels.expandSidebar : AuthLabels.collapseSidebar;
  return (
    <Box
      component="nav"
      aria-label={AuthLabels.mainNavigation}
      data-collapsed={collapsed}
      sx={{
        width,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        overflowX: 'hidden',
        transition: (t) => t.transitions.create('width', { duration: t.transitions.duration.shorter }),
      }}
    >
      <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', p: 1 }}>
        <Tooltip title={toggleLabel} placement="right">
          <IconButton onClick={onToggle} aria-label={toggleLabel} aria-expanded={!collapsed}>
            {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
          </IconButton>
        </Tooltip>
      </Box>
      <Divider />
      <List>
        {sidebarEntriesFor(role).map((entry) => (
          <ListItem key={entry.path} disablePadding sx={{ display: 'block' }}>
            <Tooltip title={collapsed ? entry.label : ''} placement="right">
              <ListItemButton
                component={NavLink}
                to={entry.path}
                end={entry.path === '/patients' ? false : true}
                aria-label={collapsed ? entry.label : undefined}
                sx={{
                  minHeight: 44,
                  justifyContent: collapsed ? 'center' : 'flex-start',
                  px: 2.5,
                  '&.active': { bgcolor: 'action.selected', fontWeight: 600 },
                }}
              >
                <ListItemIcon sx={{ minWidth: 0, mr: collapsed ? 0 : 2, justifyContent: 'center' }}>
                  {ICONS[entry.path]}
                </ListItemIcon>
                {!collapsed && <ListItemText primary={entry.label} />}
              </ListItemButton>
            </Tooltip>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
