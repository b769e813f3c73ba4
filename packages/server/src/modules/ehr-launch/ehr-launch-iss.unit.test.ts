import { EhrLaunchErrors } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { issProblem } from './ehr-launch.service.ts';

describe('an EHR FHIR base URL (iss)', () => {
  it('is https, or plain http on this machine only while the portal itself runs on http', () => {
    expect(issProblem('https://ehr.example.org/fhir/r4', false)).toBeNull();
    expect(issProblem('http://127.0.0.1:8080/fhir', true)).toBeNull();
    expect(issProblem('http://localhost:8080/fhir', true)).toBeNull();
    expect(issProblem('http://[::1]:8080/fhir', true)).toBeNull();
    expect(issProblem('http://127.0.0.1:8080/fhir', false)).toBe(EhrLaunchErrors.issNotHttps);
    expect(issProblem('http://ehr.example.org/fhir', true)).toBe(EhrLaunchErrors.issNotHttps);
    expect(issProblem('ftp://ehr.example.org/fhir', true)).toBe(EhrLaunchErrors.issNotHttps);
  });

  it('is a plain URL: no query, fragment or credentials', () => {
    expect(issProblem('not a url', false)).toBe(EhrLaunchErrors.issInvalid);
    expect(issProblem('https://ehr.example.org/fhir?tenant=1', false)).toBe(EhrLaunchErrors.issInvalid);
    expect(issProblem('https://ehr.example.org/fhir#x', false)).toBe(EhrLaunchErrors.issInvalid);
    expect(issProblem('https://user:pw@ehr.example.org/fhir', false)).toBe(EhrLaunchErrors.issInvalid);
    expect(issProblem('https://ehr.example.org/fhir?', false)).toBe(EhrLaunchErrors.issInvalid);
  });
});
