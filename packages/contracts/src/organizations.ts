import { Type, type Static } from 'typebox';

export const Provider = Type.Object({ id: Type.Integer(), name: Type.String() });
export type Provider = Static<typeof Provider>;

export const Organization = Type.Object({ id: Type.Integer(), name: Type.String() });
export type Organization = Static<typeof Organization>;
