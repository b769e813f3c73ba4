import { Alert } from '@mui/material';
import { PatientTexts, UxTexts } from '@rpm/contracts';
import { paths } from '../../config/paths.ts';
import { MessagePage } from '../../components/message-page.tsx';
import { ApiError, errorMessage } from '../../api/errors.ts';

/** The patient id of a /patients/:id address, or null when the address cannot name a patient. */
export function patientIdFrom(raw: string | undefined): number | null {
  if (!raw || !/^[1-9][0-9]*$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

const backToPatients = { label: UxTexts.backToPatients, to: paths.patients };

/** /patients/abc and the like: said plainly, before any request is made. */
export function PatientBadLink() {
  return <MessagePage title={UxTexts.badLinkTitle} body={UxTexts.badLinkBody} back={backToPatients} />;
}

/**
 * Why a patient could not be loaded. The API answers 404 for a patient that does not exist and
 * for one of another organization alike, so the page does not tell the two apart either.
 */
export function PatientLoadProblem({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 404) {
    return <MessagePage title={UxTexts.patientNotFoundTitle} body={UxTexts.patientNotFoundBody} back={backToPatients} />;
  }
  return <Alert severity="error">{errorMessage(error, PatientTexts.failedToLoadPatient)}</Alert>;
}
