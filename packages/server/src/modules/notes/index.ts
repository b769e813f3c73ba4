export { notesRoutes } from './notes.routes.ts';
export { writeNote } from './notes.service.ts';
export { addNote } from './notes.service.ts';
