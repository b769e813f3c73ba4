import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import BillingIcon from '@mui/icons-material/RequestQuote';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import GroupIcon from '@mui/icons-material/Group';
import HistoryIcon from '@mui/icons-material/History';
import InputIcon from '@mui/icons-material/Input';
import NotificationsIcon from '@mui/icons-material/NotificationsActive';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import StorageIcon from '@mui/icons-material/Storage';
import {
  Badge,
  Box,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import { AlertTexts, AuthLabels, SIDEBAR_EXPANDED_WIDTH, UxTexts, type Role } from '@rpm/contracts';
import { SidebarEntries } from './sidebar-entries.ts';
import { Suspense, lazy, type ReactElement } from 'react';
import { NavLink } from 'react-router';
import { useAlertSummary } from '../api/alerts/alert-summary.ts';

const ICONS: Record<string, ReactElement> = {
  '/patients': <GroupIcon />,
  '/billing': <BillingIcon />,
  '/devices': <DevicesIcon />,
  '/users': <ManageAccountsIcon />,
  '/register': <PersonAddIcon />,
  '/organizations/add': <AddBusinessIcon />,
  '/db': <StorageIcon />,
  '/audit-logs': <HistoryIcon />,
  '/integrations': <InputIcon />,
  '/alerts': <AlertsIcon />,
};

// The tooltips (and the popper positioning under them) only help a pointer resting on an icon:
// their code follows the sidebar instead of holding up the first page. Until it is there the
// entries show without a tooltip; their accessible names do not depend on it.
const Tooltip = lazy(() => import('@mui/material/Tooltip'));
function Hint({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Suspense fallback={children}>
      <Tooltip title={title} placement="right">
        {children}
      </Tooltip>
    </Suspense>
  );
}

const ALERTS_ENTRY = { label: AlertTexts.navAlerts, path: '/alerts' } as const;

/**
 * The Alerts icon carries the number of active alerts (open and acknowledged) the user may see:
 * the summary counts exactly what the worklist's default view lists. Kept live by the alert stream.
 */
function AlertsIcon() {
  const summary = useAlertSummary();
  const open = summary.data?.open ?? 0;
  // No badge at zero: an invisible "0" would still be part of the entry's name.
  if (open === 0) return <NotificationsIcon />;
  return (
    <Badge
      badgeContent={open}
      color="error"
      max={99}
      aria-label={AlertTexts.badgeActive(open)}
      data-testid="alerts-badge"
    >
      <NotificationsIcon />
    </Badge>
  );
}

/** Patients and Billing for everyone; admins also get the admin entries, in the spec's order. */
export function sidebarEntriesFor(role: Role) {
  // Alerts follow Patients: every signed-in user works the worklist. Billing (beyond the spec) comes last.
  const everyone = [...SidebarEntries.everyone, ALERTS_ENTRY];
  return [...(role === 'admin' ? [...everyone, ...SidebarEntries.admin] : everyone), ...SidebarEntries.program];
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
        <Hint title={toggleLabel}>
          <IconButton onClick={onToggle} aria-label={toggleLabel} aria-expanded={!collapsed}>
            {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
          </IconButton>
        </Hint>
      </Box>
      <Divider />
      <NavEntries role={role} collapsed={collapsed} />
    </Box>
  );
}

/**
 * Below the md breakpoint the sidebar would leave too little room for the page, so the same
 * entries open in a temporary drawer from the top bar's menu button and close on choosing one.
 */
export function NavigationDrawer({
  role,
  id,
  open,
  onClose,
}: {
  role: Role;
  id: string;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Drawer id={id} variant="temporary" open={open} onClose={onClose} ModalProps={{ keepMounted: false }}>
      <Box component="nav" aria-label={AuthLabels.mainNavigation} sx={{ width: SIDEBAR_EXPANDED_WIDTH }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', pl: 2.5, pr: 1, py: 1 }}>
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
            {AuthLabels.appName}
          </Typography>
          <IconButton onClick={onClose} aria-label={UxTexts.closeNavigation}>
            <ChevronLeftIcon />
          </IconButton>
        </Box>
        <Divider />
        <NavEntries role={role} collapsed={false} onNavigate={onClose} />
      </Box>
    </Drawer>
  );
}

function NavEntries({ role, collapsed, onNavigate }: { role: Role; collapsed: boolean; onNavigate?: () => void }) {
  return (
    <List>
      {sidebarEntriesFor(role).map((entry) => (
        <ListItem key={entry.path} disablePadding sx={{ display: 'block' }}>
          <Hint title={collapsed ? entry.label : ''}>
            <ListItemButton
              component={NavLink}
              to={entry.path}
              onClick={onNavigate}
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
          </Hint>
        </ListItem>
      ))}
    </List>
  );
}
