import { Typography } from '@mui/material';
import { Labels } from '@rpm/contracts';

export default function DashboardPage() {
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {Labels.dashboard}
      </Typography>
      <Typography>Welcome to the remote patient monitoring portal.</Typography>
    </>
  );
}
