import { Alert, Typography } from '@mui/material';
import { Labels } from '@rpm/contracts';

/** Says plainly that a page exists in the route table but is not built yet. */
export function NotBuilt({ title }: { title: string }) {
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Alert severity="info">{Labels.notBuiltYet}</Alert>
    </>
  );
}
