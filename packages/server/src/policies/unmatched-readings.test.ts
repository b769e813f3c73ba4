import { describe, expect, it } from 'vitest';
import { mayAttachSourceReadings } from './unmatched-readings.ts';

describe('unmatched readings policy', () => {
  it("attaches readings of the patient's organization's sources only", () => {
    expect(mayAttachSourceReadings(1, 1)).toBe(true);
    expect(mayAttachSourceReadings(2, 1)).toBe(false);
    expect(mayAttachSourceReadings(null, 1)).toBe(true);
  });
});
