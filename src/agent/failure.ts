/** A failed request as a tool result: what failed in the extension's words, the error (from the service) as data. */
import { errorMessage } from '../errors';
import { cellText, type ToolText } from './text';

export function errorResult(what: string, error: unknown): ToolText {
  return {
    title: `${what} failed.`,
    notes: ['Tell the user what failed; do not retry more than once.'],
    data: cellText(errorMessage(error), 1000),
  };
}
