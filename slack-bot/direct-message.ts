/** Direct messages (with the app, or between people) have ids starting with D. */
export function isSlackDirectMessage(channelId: string): boolean {
  return channelId.startsWith('D');
}
