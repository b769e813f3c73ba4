import { Box, Container, useMediaQuery, type Theme } from '@mui/material';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_EXPANDED_WIDTH } from '@rpm/contracts';
import { lazy, Suspense, useId, useState } from 'react';
import { Outlet } from 'react-router';
import { useAlertStream } from '../api/alerts/alert-stream.ts';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { useFocusHeadingOnNavigation } from './focus-heading.ts';
import { SessionEndedDialog, SessionManager } from './session.tsx';
import { TopBar } from './top-bar.tsx';

// Only signed-in users see the sidebar: it loads with the first signed-in page.
const Sidebar = lazy(() => import('./sidebar.tsx').then((m) => ({ default: m.Sidebar })));
const NavigationDrawer = lazy(() => import('./sidebar.tsx').then((m) => ({ default: m.NavigationDrawer })));

const SIDEBAR_KEY = 'rpm.sidebarCollapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_KEY) === '1';
  } catch {
    return false;
  }
}

/** The page frame of spec section 2: top bar, sidebar for signed-in users, the session rules. */
export function Layout() {
  const { user } = useAuth();
  // One live alert stream per signed-in tab: the badge and the worklist follow it.
  useAlertStream(user !== null);
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = () => {
    setCollapsed((c) => {
      try {
        localStorage.setItem(SIDEBAR_KEY, c ? '0' : '1');
      } catch {
        /* the choice lasts until reload */
      }
      return !c;
    });
  };
  const sidebarWidth = collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_EXPANDED_WIDTH;
  // Below md (900 px) a fixed sidebar leaves a phone too little room: it becomes a drawer.
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerId = useId();
  useFocusHeadingOnNavigation('main-content');

  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: '100vh',
        // A printed page (billing evidence, a summary) is the page alone: no skip link, top bar or sidebar.
        '@media print': { '& > a, & > header, & > div > nav': { display: 'none' } },
      }}
    >
      <Box
        component="a"
        href="#main-content"
        sx={{
          position: 'absolute',
          left: -10000,
          top: 8,
          zIndex: (t) => t.zIndex.tooltip,
          bgcolor: 'background.paper',
          p: 1,
          '&:focus': { left: 8 },
        }}
      >
        Skip to content
      </Box>
      <TopBar
        compact={narrow}
        navigation={
          user && narrow ? { drawerId, open: drawerOpen, onOpen: () => setDrawerOpen(true) } : undefined
        }
      />
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {user && (
          <Suspense fallback={null}>
            {narrow ? (
              <NavigationDrawer role={user.role} id={drawerId} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
            ) : (
              <Sidebar role={user.role} collapsed={collapsed} width={sidebarWidth} onToggle={toggle} />
            )}
          </Suspense>
        )}
        <Box component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, minWidth: 0, outline: 'none' }}>
          <Container maxWidth="lg" sx={{ py: 3, px: { xs: 2, sm: 3 } }}>
            <Outlet />
          </Container>
        </Box>
      </Box>
      <SessionManager />
      <SessionEndedDialog />
    </Box>
  );
}
