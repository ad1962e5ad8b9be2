export { TemplateMiner, tokensOf, PARAM, PUNCTUATION, type MinedMessage } from './drain';
export { stripAnsi, reconstructTemplate } from './text';
export { groupPatterns, trendTimes, type EventPattern, type EventPatterns, type SampledRow } from './group';
