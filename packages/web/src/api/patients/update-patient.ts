import { PatientDetail, type PatientUpdate } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';

export const updatePatientCall = defineCall('PUT', '/api/patients/:id', import.meta.env.DEV && PatientDetail);

export const updatePatient = (id: number, body: PatientUpdate) => callApi(updatePatientCall, { params: { id }, body });
