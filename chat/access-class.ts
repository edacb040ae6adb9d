/**
 * Who may see an answer or a scheduled post, declared by every command and scheduled kind: anyone, the people who
 * run the laundry's operations, accounting (only where an admin allowed accounting answers: `connections/access.ts`),
 * or the workspace's or tenant's admins.
 */
export type AccessClass = 'everyone' | 'operations' | 'accounting' | 'admins';
