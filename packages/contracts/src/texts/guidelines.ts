/*
 * The guidance behind each clinical default, cited on the settings pages. Kept apart from the
 * thresholds and the kinds (which name their sources by key) so that the texts load with the
 * settings pages, not with every page that classifies a reading.
 */
/** Where a threshold's default comes from, cited beside it here and on the settings page. */
export const GuidelineSources = {
  accAha2017:
    '2017 ACC/AHA guideline for high blood pressure in adults (Whelton et al., Hypertension 2018;71:e13), table 11: home-reading equivalents of office thresholds; 2025 AHA/ACC update keeps them.',
  accAhaCrisis: '2017 ACC/AHA guideline, section 11.2: hypertensive crisis above 180 systolic or 120 diastolic.',
  lowBp: 'Hypotension below 90/60 mmHg (ESC 2018 syncope guideline); below 80/50 with a pulse above 100/min suggests shock (portal default).',
  bradycardia:
    'ACC/AHA/HRS 2018 bradycardia guideline (Kusumoto et al., Circulation 2019;140:e382): below 50/min; above 120/min is the portal default.',
  hfsa: 'HFSA/ACC/AHA 2022 heart-failure guideline (Heidenreich et al., Circulation 2022;145:e895): report a gain of more than 2 lb (0.9 kg) in a day or 5 lb (2.3 kg) in a week.',
  adaHypo: 'ADA Standards of Care in Diabetes 2025, section 6: level 1 hypoglycemia below 70 mg/dL, level 2 below 54 mg/dL.',
  adaHigh:
    'ADA Standards of Care in Diabetes 2025, section 6: very high above 250 mg/dL; above 400 mg/dL is the portal default for same-day contact (meters read "HI" near it).',
  bts: "BTS guideline for oxygen use in adults 2017 (O'Driscoll et al., Thorax 2017;72:ii1) and NEWS2 (RCP 2017): below 92 % needs assessment, 88 % the target floor in COPD; below 85 % is critical.",
  fever: 'CDC: fever is a temperature of 38.0 °C (100.4 °F) or above.',
  window:
    '2017 ACC/AHA guideline, section 4.2: home blood pressure is judged on the average of readings taken over a week (at least 2 a day on several days), not on one reading.',
  hypothermia:
    'Hypothermia below 35 °C (Brown et al., Accidental hypothermia, N Engl J Med 2012;367:1930); 40 °C and above is treated as critical (hyperpyrexia).',
  escalation: 'Portal default: a critical alert nobody has acknowledged within 30 minutes goes to the escalation contacts.',
} as const;
export type GuidelineSource = keyof typeof GuidelineSources;
