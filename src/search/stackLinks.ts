/** The stack-trace frames of a row's details that open a workspace file (multi-line values: bodies, stack traces). */
import type { FrameLinks } from '../panels/frameLinks';
import type { ToPage } from './protocol';

export async function withFrameLinks(message: ToPage, frames: FrameLinks): Promise<ToPage> {
  if (message.type !== 'details') return message;
  for (const field of message.fields) {
    if (field.more !== undefined || !field.value.includes('\n')) continue;
    const links = await frames.links(field.value).catch(() => []);
    if (links.length > 0) field.links = links;
  }
  return message;
}
