/**
 * Who may connect, disconnect or change access: the workspace's admins and owners (users.info), and the users
 * in LINEN_ADMIN_USER_IDS.
 */
export const ADMINS_ONLY =
  'Only workspace admins and owners (or the Linen admins the bot was set up with) can connect Linen or change its access.';

/** The part of the Web API client this needs (Bolt's per-workspace client). */
export interface UsersInfo {
  users: {
    info(args: {
      user: string;
    }): Promise<{ user?: { is_admin?: boolean; is_owner?: boolean; tz?: string } | undefined }>;
  };
}

export async function isWorkspaceAdmin(
  slack: UsersInfo,
  userId: string,
  adminUserIds: readonly string[],
): Promise<boolean> {
  if (adminUserIds.includes(userId)) return true;
  const info = await slack.users.info({ user: userId });
  return Boolean(info.user?.is_admin || info.user?.is_owner);
}

/** The user's own timezone in Slack (the connect form's suggestion when the bot has none); undefined if unknown. */
export async function slackTimeZoneOf(slack: UsersInfo, userId: string): Promise<string | undefined> {
  try {
    return (await slack.users.info({ user: userId })).user?.tz || undefined;
  } catch {
    return undefined;
  }
}
