import { PatientDetail, type PatientInput } from '@rpm/contracts';
import { callApi, defineCall } from '../client.ts';

export const createPatientCall = defineCall('POST', '/api/patients', import.meta.env.DEV && PatientDetail);

export const createPatient = (body: PatientInput) => callApi(createPatientCall, { body });
