import { Link, TableCell } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths.ts';

/** A billing row's first cell: the patient's name, a link to their record. */
export function PatientCell({ row }: { row: { patient_id: number; patient_name: string } }) {
  return (
    <TableCell>
      <Link component={RouterLink} to={paths.patient(row.patient_id)}>
        {row.patient_name}
      </Link>
    </TableCell>
  );
}
