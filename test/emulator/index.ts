export { startEmulator, htmlNotFound, type Emulator } from './server';
export { SAMPLE_KEY_ID, SAMPLE_KEY_SECRET, SAMPLE_KEY_UUID, SAMPLE_ORGANIZATION_ID, SAMPLE_SERVICE_IDS } from './seed';
export type { EmulatorOptions, EmulatorState, FaultController, FaultSpec, RecordedRequest, RateLimitHeaderMode } from './types';
