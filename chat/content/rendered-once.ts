/**
 * A platform's rendering of content, made once per content object: the digest runs that share one build
 * (`chat/digests/shared-builds.ts`) post the same content, and neither the content nor its rendering is changed once
 * made, so the Slack message and the Teams card of a digest are rendered once for all its channels.
 */
import type { Content } from './document.ts';

export function renderedOnce<R>(render: (content: Content) => R): (content: Content) => R {
  const rendered = new WeakMap<Content, R>();
  return (content) => {
    let r = rendered.get(content);
    if (r === undefined) {
      r = render(content);
      rendered.set(content, r);
    }
    return r;
  };
}
