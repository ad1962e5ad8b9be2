/**
 * `observability_createAlert` (writes): creates one alert from the body the model wrote from the user's description.
 * The body is checked with the live service's rules first (the same write schema as the editors); a body that fails
 * is answered with its problems and nothing is sent. The confirmation shows the service and the exact JSON body.
 */
import { escapeMarkdown, sanitizeServerText } from '../../api';
import { alertWriteSchema } from '../../schema';
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import { cellText } from '../text';
import type { WriteTool } from '../tool';

/** A Markdown code block that no backtick run inside the text can close. */
function codeBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}json\n${text}\n${fence}`;
}

export const createAlert: WriteTool = {
  name: 'observability_createAlert',
  kind: 'write',
  running: () => 'Creating the alert',
  async plan(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    const body = input.alert;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return { title: 'Nothing was sent: "alert" must be the alert body (a JSON object).' };
    }
    const checked = alertWriteSchema.safeParse(body);
    if (!checked.success) {
      const problems = checked.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
      return {
        title: 'Nothing was sent: the alert body does not pass the service rules. Fix these fields and try again:',
        notes: problems.slice(0, 20).map((p) => `- ${cellText(p, 300)}`),
      };
    }
    // What is sent is the body as given (unknown fields kept), exactly as shown.
    const json = JSON.stringify(body, null, 2);
    const where = scope.selfHosted
      ? `the self-hosted deployment ${escapeMarkdown(scope.connectionLabel)}`
      : `service ${escapeMarkdown(scope.serviceLabel)} on ${escapeMarkdown(scope.connectionLabel)}`;
    const frozen = JSON.parse(json) as Record<string, unknown>;
    return {
      title: `Create the alert "${sanitizeServerText(typeof frozen.name === 'string' ? frozen.name : '(no name)', 120)}"?`,
      message: `This creates a new alert on ${where} with this body:\n\n${codeBlock(json)}`,
      async send(ctx) {
        try {
          const created = (
            await ctx.deps.connections.clientFor(scope.connectionId).createAlert(scope.serviceId, frozen as never)
          ).data;
          ctx.deps.log.info(`Agent tool: created alert ${created.id} on ${scope.serviceId}`);
          return {
            title: `Created the alert on ${scopeName(scope)}.`,
            data: `alert ID: ${cellText(created.id)}\nname: ${cellText(created.name)}\nstate: ${cellText(created.state ?? 'new')}`,
          };
        } catch (error) {
          return errorResult(`Create alert on ${scopeName(scope)}`, error);
        }
      },
    };
  },
};
