import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { checkAnswers } from './src/lib/testing/contract-answers.ts';

afterEach(async () => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  await checkAnswers();
});
