export {
  startEmulator,
  htmlNotFound,
  takeResponseIssues,
  describeResponseIssues,
  FUTURE_PAGE_CAP,
  type Emulator,
} from './server';
export { SAMPLE_KEY_ID, SAMPLE_KEY_SECRET, SAMPLE_KEY_UUID, SAMPLE_ORGANIZATION_ID, SAMPLE_SERVICE_IDS } from './seed';
export type {
  EmulatorOptions,
  EmulatorState,
  FaultController,
  FaultSpec,
  HyperdxVersion,
  RecordedRequest,
  RateLimitHeaderMode,
  ResponseIssue,
} from './types';
