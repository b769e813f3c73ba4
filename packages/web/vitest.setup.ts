import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { checkAnswers } from './src/lib/testing/contract-answers.ts';

// Every findBy/waitFor waits up to 5 s, not 1 s: on a shared, busy machine a page that retries
// after 500 ms, or imports a lazy route the first time, can take longer than a second to answer.
configure({ asyncUtilTimeout: 5000 });

afterEach(async () => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  await checkAnswers();
});
