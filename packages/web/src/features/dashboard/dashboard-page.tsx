import { Typography } from '@mui/material';
import { AuthLabels, Labels } from '@rpm/contracts';
import { AlertsOverview } from '../../components/alerts-overview.tsx';
import { useAuth } from '../../lib/auth/auth-context.tsx';

export default function DashboardPage() {
  const { user } = useAuth();
  const name = user?.first_name?.trim();
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {Labels.dashboard}
      </Typography>
      <Typography>
        {name ? `Welcome, ${name}. ` : ''}
        {AuthLabels.welcome}
      </Typography>
      <AlertsOverview />
    </>
  );
}
