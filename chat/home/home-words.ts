/**
 * The words of the `home` command, which its buttons and choices ask with: the home (`home`), what to follow
 * (`home follow …`, `home places …`) and a digest or alert of the person's paused, resumed or removed from it. The
 * command module reads them (commands/home.ts); the view writes them (views/home.ts).
 */

export const HOME_WORD = 'home';

/** What a home button does to a digest or alert. */
export type WatchAction = 'pause' | 'resume' | 'remove';
export type WatchKind = 'digest' | 'alert';

export const HOME_COMMANDS = {
  show: HOME_WORD,
  follow: `${HOME_WORD} follow`,
  places: `${HOME_WORD} places`,
  watch: (action: WatchAction, what: WatchKind, id: string) => `${HOME_WORD} ${action} ${what} ${id}`,
} as const;
