// A cohort reading as the FHIR Observation the alert-burden benchmark sends in its Bundles.
import type { Reading } from './bench-alert-burden.cohort.ts';

const quantity = (value: number, code: string) => ({
  value,
  unit: code,
  system: 'http://unitsofmeasure.org',
  code,
});
const loinc = (code: string) => ({ coding: [{ system: 'http://loinc.org', code }] });
export const fhirObservation = (r: Reading) => {
  const common = {
    resourceType: 'Observation',
    status: 'final',
    effectiveDateTime: new Date(r.at).toISOString(),
    device: { identifier: { value: r.patient.devices[r.kind]! } },
  };
  const simple = (code: string, unit: string, category = 'vital-signs') => ({
    ...common,
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
    code: loinc(code),
    valueQuantity: quantity(r.values[0]!, unit),
  });
  switch (r.kind) {
    case 'blood_pressure':
      return {
        ...common,
        code: loinc('85354-9'),
        component: [
          { code: loinc('8480-6'), valueQuantity: quantity(r.values[0]!, 'mm[Hg]') },
          { code: loinc('8462-4'), valueQuantity: quantity(r.values[1]!, 'mm[Hg]') },
          { code: loinc('8867-4'), valueQuantity: quantity(r.values[2]!, '/min') },
        ],
      };
    case 'weight':
      return simple('29463-7', 'kg');
    case 'glucose':
      return simple('2339-0', 'mg/dL', 'laboratory');
    case 'spo2':
      return simple('59408-5', '%');
    case 'temperature':
      return simple('8310-5', 'Cel');
  }
};
