// Moved to support/http.ts; kept so that tests written against the old path still find it.
export * from './support/http.ts';
