export { devicesRoutes } from './devices.routes.ts';
export type { DeviceRow } from './devices.repository.ts';
export { assignDevicesToPatient } from './devices.service.ts';
export { createDevice, getDevices } from './devices.service.ts';
